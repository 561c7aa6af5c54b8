//! The campaign's public pages: `realmgm site build` and the
//! daemon's rebuild after each processed day. Static HTML, SVG and CSS with
//! an Atom feed, for any web host, readable on a phone and without
//! JavaScript.
//!
//! The plumbing here decides how much of each day the pages show
//! ([`disclosure`], from the campaign's `[site]` table), asks the game for
//! each day's page ([`crate::game::PublicPages::site_day`]), gathers the GM's
//! announcements and narrative, draws the charts ([`charts`]), fills the
//! `site_*` templates (overridable per campaign, like the reports) and
//! replaces the published folder in one step ([`publish`]).

pub mod charts;
pub mod publish;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::Serialize;

use crate::campaign::{Campaign, Publish, SiteSettings};
use crate::game::{Event, Game, GameState, Observers};
use crate::report::Templates;
use crate::store::Store;
use realmgm_core::page::{Block, Disclosure, FinalScore, SiteDay, Standing};

/// How much of `day` the pages show, the campaign's `latest` day played
/// and whether it is `over` (README "Public pages").
pub fn disclosure(settings: &SiteSettings, day: u32, latest: u32, over: bool) -> Disclosure {
    match settings.publish {
        Publish::Public => Disclosure::Public,
        Publish::End | Publish::Delayed if over => Disclosure::Everything,
        Publish::End => Disclosure::Public,
        Publish::Delayed => {
            let delay = settings.delay_days.unwrap_or(u32::MAX);
            if day.saturating_add(delay) <= latest {
                Disclosure::Record
            } else {
                Disclosure::Public
            }
        }
    }
}

/// What a build wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// The folder (a link to the version just written).
    pub out: PathBuf,
    pub files: usize,
    /// The days with a page, and those whose whole records are shown.
    pub days: u32,
    pub days_with_records: u32,
    /// What the build was made from: a rebuild of the same is skipped.
    pub fingerprint: String,
}

/// Build the public pages of `campaign` into `out`, replacing what a
/// previous build put there in one step.
///
/// # Errors
/// No such campaign, no day played yet, a game without public pages, a
/// broken template, or the folder cannot be written.
pub fn build(store: &Store, campaign: &str, out: &Path) -> anyhow::Result<Built> {
    let site = gather(store, campaign)?;
    let files = site.render()?;
    publish::replace(out, &files, &site.fingerprint)?;
    Ok(Built {
        out: out.to_path_buf(),
        files: files.len(),
        days: u32::try_from(site.days.len()).unwrap_or(u32::MAX),
        days_with_records: u32::try_from(
            site.days
                .iter()
                .filter(|d| d.disclosure != Disclosure::Public)
                .count(),
        )
        .unwrap_or(u32::MAX),
        fingerprint: site.fingerprint,
    })
}

/// What the pages of `campaign` would be built from now, as a short hash:
/// the latest day's state, the `[site]` settings and the GM's words;
/// `None` before day 1 is played.
///
/// # Errors
/// No such campaign, or the store fails.
pub fn fingerprint(store: &Store, campaign: &str) -> anyhow::Result<Option<String>> {
    let stored = store.campaigns().load(campaign)?;
    // Set up but not played: no pages yet, and nothing to report.
    let Some(latest) = store.days().latest(campaign)?.filter(|l| l.day > 0) else {
        return Ok(None);
    };
    let mut words = Vec::new();
    for day in 1..=latest.day {
        words.push(store.announcements().of_day(campaign, day)?.join("\n"));
        words.push(
            store
                .announcements()
                .narrative(campaign, day)?
                .unwrap_or_default(),
        );
    }
    Ok(Some(hash_of(&stored.campaign, &latest.hash, &words)))
}

fn hash_of(campaign: &Campaign, latest_hash: &str, words: &[String]) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    hasher.update(latest_hash.as_bytes());
    hasher.update(serde_json::to_string(&campaign.site).unwrap_or_default());
    hasher.update(campaign.template_folder.as_deref().unwrap_or_default());
    hasher.update(env!("CARGO_PKG_VERSION"));
    for word in words {
        hasher.update(word.as_bytes());
        hasher.update([0]);
    }
    crate::game::hex(&hasher.finalize()[..8])
}

/// Everything the pages show, gathered from the store.
struct Site {
    campaign: Campaign,
    settings: SiteSettings,
    templates: Templates,
    rules: Vec<String>,
    calendar: Vec<String>,
    over: bool,
    days: Vec<DayPage>,
    /// The characters with a page of their own.
    paged: std::collections::BTreeSet<String>,
    fingerprint: String,
}

/// One day as the pages show it.
struct DayPage {
    day: u32,
    disclosure: Disclosure,
    /// When the day's page got what it shows now (the feed's `updated`).
    shown_since: i64,
    announcements: Vec<String>,
    narrative: Option<String>,
    page: SiteDay,
}

impl DayPage {
    fn standings_shown(&self, settings: &SiteSettings) -> bool {
        self.disclosure != Disclosure::Public || settings.standings
    }
}

fn gather(store: &Store, name: &str) -> anyhow::Result<Site> {
    let stored = store.campaigns().load(name)?;
    let campaign = stored.campaign.clone();
    let game = campaign.game(store.games())?;
    let Some(latest) = store.days().latest(name)? else {
        bail!("campaign {name} is not set up yet; its pages are built once day 0 is stored");
    };
    if latest.day == 0 {
        bail!(
            "campaign {name} has not played a day yet; its pages are built once day 1 is processed"
        );
    }
    let over = game.is_over(&latest.state)?;
    let settings = campaign.site.clone().unwrap_or_default();
    let mut created = BTreeMap::new();
    let mut previous: Option<GameState> = store.days().load(name, 0)?.map(|s| s.state);
    let mut days = Vec::new();
    for day in 1..=latest.day {
        let Some(snapshot) = store.days().load(name, day)? else {
            bail!(
                "campaign {name} has no day {day} stored, yet day {} is",
                latest.day
            );
        };
        created.insert(day, snapshot.created);
        let events: Vec<Event> = store
            .days()
            .events(name, day)?
            .into_iter()
            .map(|e| Event {
                observers: Observers::from_list(&e.observers),
                body: e.event,
            })
            .collect();
        let disclosure = disclosure(&settings, day, latest.day, over);
        let page = game
            .pages()
            .with_context(|| {
                format!(
                    "the public pages are not built for {} campaigns yet; they are built for \
                     Magic Realm",
                    game.id()
                )
            })
            .and_then(|pages| {
                pages.site_day(&snapshot.state, previous.as_ref(), &events, disclosure)
            })
            .with_context(|| format!("day {day} of campaign {name}"))?;
        let announcements = store.announcements().of_day(name, day)?;
        let narrative = store.announcements().narrative(name, day)?;
        days.push(DayPage {
            day,
            disclosure,
            shown_since: 0,
            announcements,
            narrative: narrative.filter(|_| disclosure != Disclosure::Public),
            page,
        });
        previous = Some(snapshot.state);
    }
    for page in &mut days {
        // A day's records appear with the day that lifts its delay; all
        // of it with the last day.
        let since = match page.disclosure {
            Disclosure::Public => page.day,
            Disclosure::Record => page.day + settings.delay_days.unwrap_or(0),
            Disclosure::Everything => latest.day,
        };
        page.shown_since = created.get(&since).copied().unwrap_or(latest.created);
    }
    let rules = game
        .toggles()
        .iter()
        .filter(|t| campaign.rules.is_on(t.name))
        .map(|t| format!("{}: {}", t.name, t.summary))
        .collect();
    let templates = campaign.templates()?;
    let paged = characters_who_played(&days)
        .into_iter()
        .map(|c| c.character)
        .collect();
    Ok(Site {
        paged,
        fingerprint: fingerprint(store, name)?.unwrap_or_default(),
        calendar: calendar_lines(game, &campaign, latest.day, over),
        rules,
        templates,
        settings,
        campaign,
        over,
        days,
    })
}

fn calendar_lines(game: &dyn Game, campaign: &Campaign, latest: u32, over: bool) -> Vec<String> {
    let mut lines = Vec::new();
    if let (Some(calendar), Some(known)) = (&campaign.calendar, game.calendar()) {
        let days = calendar.months * known.days_per_month;
        lines.push(format!(
            "{} month{} of {} days: {days} days in all.",
            calendar.months,
            if calendar.months == 1 { "" } else { "s" },
            known.days_per_month
        ));
        if let Some(season) = &calendar.start_season {
            lines.push(format!("The campaign starts in {season}."));
        }
        lines.push(format!(
            "Each character shares {} victory points among the categories.",
            calendar.victory_points
        ));
    }
    lines.push(if over {
        format!("The campaign ended after day {latest}.")
    } else {
        format!("Day {latest} is the latest day played.")
    });
    lines
}

/// A page's file name.
fn day_file(day: u32) -> String {
    format!("day-{day:03}.html")
}

/// A name as a file name: lower case, letters and digits, '-' between.
fn slug(name: &str) -> String {
    let mut slug = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    slug.trim_end_matches('-').to_string()
}

fn character_file(character: &str) -> String {
    format!("character-{}.html", slug(character))
}

/// A link to a page, as the navigation and the index list it.
#[derive(Serialize)]
struct Link {
    file: String,
    title: String,
}

/// What every page's layout is filled with.
#[derive(Serialize)]
struct Common<'a> {
    campaign: &'a str,
    title: &'a str,
    publish: String,
    characters: Vec<CharacterLink>,
    days: Vec<DayLink>,
    has_final: bool,
    feed: &'static str,
}

#[derive(Serialize)]
struct CharacterLink {
    character: String,
    player: String,
    file: String,
}

#[derive(Serialize)]
struct DayLink {
    day: u32,
    file: String,
    disclosure: Disclosure,
}

#[derive(Serialize)]
struct DayView<'a> {
    day: u32,
    disclosure: Disclosure,
    previous: Option<Link>,
    next: Option<Link>,
    weather: Option<&'a str>,
    announcements: &'a [String],
    narrative: Option<&'a str>,
    deaths: &'a [String],
    sections: Vec<SectionView<'a>>,
    map_file: Option<String>,
    standings: Option<&'a [Standing]>,
}

#[derive(Serialize)]
struct SectionView<'a> {
    title: &'a str,
    blocks: Vec<BlockView<'a>>,
}

#[derive(Serialize)]
struct BlockView<'a> {
    character: Option<&'a str>,
    file: Option<String>,
    heading: Option<&'a str>,
    lines: &'a [String],
}

#[derive(Serialize)]
struct JourneyDay<'a> {
    day: u32,
    file: String,
    disclosure: Disclosure,
    blocks: Vec<BlockView<'a>>,
    died: bool,
}

#[derive(Serialize)]
struct Chart {
    title: String,
    file: String,
}

#[derive(Serialize)]
struct FeedEntry {
    day: u32,
    file: String,
    updated: String,
    summary: String,
}

impl Site {
    fn common(&self) -> Common<'_> {
        Common {
            campaign: &self.campaign.name,
            title: self
                .campaign
                .title
                .as_deref()
                .unwrap_or(&self.campaign.name),
            publish: self.publish_words(),
            characters: self.characters(),
            days: self
                .days
                .iter()
                .map(|d| DayLink {
                    day: d.day,
                    file: day_file(d.day),
                    disclosure: d.disclosure,
                })
                .collect(),
            has_final: self.final_scores().is_some(),
            feed: "feed.xml",
        }
    }

    /// What the pages show, in words for the index.
    fn publish_words(&self) -> String {
        let standings = if self.settings.standings {
            " The GM shows the standings as they stand."
        } else {
            ""
        };
        let how = match self.settings.publish {
            Publish::Public => {
                "These pages show what every player learns: the GM's announcements, public events, \
                 deaths and the calendar."
                    .to_string()
            }
            Publish::Delayed => format!(
                "These pages show each day's full records {} days after it; until then what every \
                 player learns. Victory requirements and hidden things stay secret until the end.",
                self.settings.delay_days.unwrap_or(0)
            ),
            Publish::End => "These pages show what every player learns until the campaign ends, \
                             and everything after."
                .to_string(),
        };
        if self.over && self.settings.publish != Publish::Public {
            format!("The campaign is over: everything is shown.{standings}")
        } else {
            format!("{how}{standings}")
        }
    }

    /// A block as the templates show it: a character's record links to his
    /// page; a hired leader's, who has no page, does not.
    fn block_view<'a>(&self, block: &'a Block) -> BlockView<'a> {
        let paged = |name: &&str| self.paged.contains(*name);
        BlockView {
            character: block.character.as_deref(),
            file: block.character.as_deref().filter(paged).map(character_file),
            heading: block.heading.as_deref(),
            lines: &block.lines,
        }
    }

    /// The characters who played, each with a page of his own.
    fn characters(&self) -> Vec<CharacterLink> {
        characters_who_played(&self.days)
    }

    fn final_scores(&self) -> Option<&[FinalScore]> {
        self.days
            .iter()
            .rev()
            .map(|d| d.page.final_scores.as_slice())
            .find(|s| !s.is_empty())
    }

    /// Every file of the site by its path inside the folder.
    fn render(&self) -> anyhow::Result<BTreeMap<String, Vec<u8>>> {
        let mut files = BTreeMap::new();
        let common = self.common();
        let render = |name: &str, context: serde_json::Value| -> anyhow::Result<Vec<u8>> {
            Ok(self.templates.render(name, context)?.into_bytes())
        };
        files.insert(
            "site.css".to_string(),
            render("site.css", serde_json::json!({}))?,
        );
        for (index, day) in self.days.iter().enumerate() {
            let map_file = day.page.map_svg.as_ref().map(|svg| {
                let file = format!("maps/day-{:03}.svg", day.day);
                files.insert(file.clone(), svg.clone().into_bytes());
                file
            });
            let link = |d: &DayPage| Link {
                file: day_file(d.day),
                title: format!("Day {}", d.day),
            };
            let view = DayView {
                day: day.day,
                disclosure: day.disclosure,
                previous: index.checked_sub(1).map(|i| link(&self.days[i])),
                next: self.days.get(index + 1).map(link),
                weather: day.page.weather.as_deref(),
                announcements: &day.announcements,
                narrative: day.narrative.as_deref(),
                deaths: &day.page.deaths,
                sections: day
                    .page
                    .sections
                    .iter()
                    .map(|s| SectionView {
                        title: &s.title,
                        blocks: s.blocks.iter().map(|b| self.block_view(b)).collect(),
                    })
                    .collect(),
                map_file,
                standings: day
                    .standings_shown(&self.settings)
                    .then_some(day.page.standings.as_slice()),
            };
            files.insert(
                day_file(day.day),
                render(
                    "site_day.html",
                    serde_json::json!({"site": common, "day": view}),
                )?,
            );
        }
        let charts = self.charts(&mut files);
        let shown: Vec<&DayPage> = self
            .days
            .iter()
            .filter(|d| d.standings_shown(&self.settings))
            .collect();
        let standings = shown.last().map(|d| (d.day, d.page.standings.as_slice()));
        files.insert(
            "standings.html".to_string(),
            render(
                "site_standings.html",
                serde_json::json!({
                    "site": common,
                    "as_of": standings.map(|s| serde_json::json!({"day": s.0, "file": day_file(s.0)})),
                    "standings": standings.map(|s| with_files(s.1, |s| &s.character)),
                    "charts": charts.get("").map(Vec::as_slice).unwrap_or_default(),
                }),
            )?,
        );
        for link in &common.characters {
            let journey = self.journey(&link.character);
            files.insert(
                link.file.clone(),
                render(
                    "site_character.html",
                    serde_json::json!({
                        "site": common,
                        "character": link,
                        "journey": journey,
                        "charts": charts.get(&link.character).map(Vec::as_slice).unwrap_or_default(),
                        "final": self.final_scores().and_then(|f| f.iter().find(|s| s.character == link.character)),
                    }),
                )?,
            );
        }
        if let Some(scores) = self.final_scores() {
            files.insert(
                "final.html".to_string(),
                render(
                    "site_final.html",
                    serde_json::json!({"site": common, "scores": with_files(scores, |s| &s.character)}),
                )?,
            );
        }
        let latest = self.days.last();
        let board = latest
            .and_then(|d| d.page.map_svg.as_ref())
            .map(|_| latest.map_or_else(String::new, |d| format!("maps/day-{:03}.svg", d.day)));
        let deaths: Vec<serde_json::Value> = self
            .days
            .iter()
            .flat_map(|d| {
                d.page.deaths.iter().map(move |c| {
                    serde_json::json!({"day": d.day, "file": day_file(d.day), "character": c})
                })
            })
            .collect();
        files.insert(
            "index.html".to_string(),
            render(
                "site_index.html",
                serde_json::json!({
                    "site": common,
                    "description": self.campaign.description,
                    "rules": self.rules,
                    "calendar": self.calendar,
                    "board": board,
                    "deaths": deaths,
                    "standings_shown": standings.is_some(),
                }),
            )?,
        );
        files.insert("feed.xml".to_string(), self.feed(&common)?);
        Ok(files)
    }

    /// The charts of the standings: per measure for all characters (key
    /// ""), and per character for him alone, written into `files`.
    fn charts(&self, files: &mut BTreeMap<String, Vec<u8>>) -> BTreeMap<String, Vec<Chart>> {
        let shown: Vec<&DayPage> = self
            .days
            .iter()
            .filter(|d| d.standings_shown(&self.settings))
            .collect();
        let mut charts: BTreeMap<String, Vec<Chart>> = BTreeMap::new();
        if shown.is_empty() {
            return charts;
        }
        let characters = self.characters();
        let measures: Vec<String> = shown[0].page.standings.first().map_or_else(Vec::new, |s| {
            s.values.iter().map(|m| m.name.clone()).collect()
        });
        let series = |character: &str, measure: &str| -> Vec<(u32, i64)> {
            shown
                .iter()
                .filter_map(|d| {
                    let standing = d.page.standings.iter().find(|s| s.character == character)?;
                    let value = standing.values.iter().find(|m| m.name == measure)?;
                    Some((d.day, value.value))
                })
                .collect()
        };
        for measure in &measures {
            let all: Vec<charts::Series> = characters
                .iter()
                .map(|c| charts::Series {
                    name: c.character.clone(),
                    points: series(&c.character, measure),
                })
                .collect();
            let file = format!("charts/{}.svg", slug(measure));
            files.insert(
                file.clone(),
                charts::line_chart(&capitalised(measure), &all).into_bytes(),
            );
            charts.entry(String::new()).or_default().push(Chart {
                title: capitalised(measure),
                file,
            });
            for (index, c) in characters.iter().enumerate() {
                let file = format!("charts/{}-{}.svg", slug(&c.character), slug(measure));
                let alone = charts::Series {
                    name: c.character.clone(),
                    points: all[index].points.clone(),
                };
                files.insert(
                    file.clone(),
                    charts::line_chart(&capitalised(measure), &[alone]).into_bytes(),
                );
                charts.entry(c.character.clone()).or_default().push(Chart {
                    title: capitalised(measure),
                    file,
                });
            }
        }
        charts
    }

    /// The blocks of `character`'s record, day by day.
    fn journey(&self, character: &str) -> Vec<JourneyDay<'_>> {
        self.days
            .iter()
            .map(|d| JourneyDay {
                day: d.day,
                file: day_file(d.day),
                disclosure: d.disclosure,
                blocks: d
                    .page
                    .sections
                    .iter()
                    .flat_map(|s| &s.blocks)
                    .filter(|b| b.character.as_deref() == Some(character))
                    .map(|b| self.block_view(b))
                    .collect(),
                died: d.page.deaths.iter().any(|c| c == character),
            })
            .collect()
    }

    fn feed(&self, common: &Common<'_>) -> anyhow::Result<Vec<u8>> {
        let entries: Vec<FeedEntry> = self
            .days
            .iter()
            .rev()
            .map(|d| FeedEntry {
                day: d.day,
                file: day_file(d.day),
                updated: rfc3339(d.shown_since),
                summary: match d.disclosure {
                    Disclosure::Public => format!("Day {}: the news every player learnt.", d.day),
                    Disclosure::Record | Disclosure::Everything => {
                        format!("Day {}: the characters' records.", d.day)
                    }
                },
            })
            .collect();
        let updated = self
            .days
            .iter()
            .map(|d| d.shown_since)
            .max()
            .unwrap_or_default();
        Ok(self
            .templates
            .render(
                "site_feed.xml",
                serde_json::json!({
                    "site": common,
                    "url": self.settings.url.as_deref().unwrap_or(""),
                    "updated": rfc3339(updated),
                    "entries": entries,
                }),
            )?
            .into_bytes())
    }
}

/// Every character in some day's standings, in the order they first
/// stood there, with his player as last seen: one who left the Realm (his
/// player removed, or playing another character) keeps his page and the
/// links to it from the days he played.
fn characters_who_played(days: &[DayPage]) -> Vec<CharacterLink> {
    let mut links: Vec<CharacterLink> = Vec::new();
    for standing in days.iter().flat_map(|d| &d.page.standings) {
        match links.iter_mut().find(|l| l.character == standing.character) {
            Some(link) => link.player.clone_from(&standing.player),
            None => links.push(CharacterLink {
                character: standing.character.clone(),
                player: standing.player.clone(),
                file: character_file(&standing.character),
            }),
        }
    }
    links
}

/// `rows` as JSON objects, each with the `file` of its character's page.
fn with_files<T: Serialize>(
    rows: &[T],
    character: impl Fn(&T) -> &String,
) -> Vec<serde_json::Value> {
    rows.iter()
        .map(|row| {
            let mut value = serde_json::to_value(row).unwrap_or_default();
            if let Some(object) = value.as_object_mut() {
                object.insert("file".into(), character_file(character(row)).into());
            }
            value
        })
        .collect()
}

/// `text` with its first letter capitalised.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A Unix time as the feed writes it: `2030-01-01T20:00:00Z` (the mail
/// parser's own RFC 3339 form).
fn rfc3339(unix: i64) -> String {
    mail_parser::DateTime::from_timestamp(unix).to_rfc3339()
}

#[cfg(test)]
mod tests;
