//! The campaign file: one TOML file a GM writes to describe a campaign (its
//! tag, game, seed, GM, players, rule toggles, turn schedule and calendar).
//!
//! [`Campaign::parse`] reads it through [`crate::embedded::parse_toml`], so a
//! wrong type or unknown key names the file, the line and the field, and then
//! checks what serde cannot (unknown game or toggle, duplicate players,
//! exclusive toggles, a season without the seasons rule), again naming the
//! line. Game-specific knowledge comes only through [`crate::game::Game`],
//! found in the [`Games`] the caller passes. The BIMR3 rule set this
//! supports is the BIMR3 rules.

pub mod edit;
mod email;
mod mail;
mod mail_auth;
mod notify;
mod schedule;
mod site;

use std::ops::Range;
use std::path::Path;

use anyhow::Context;

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::embedded::{DataError, parse_toml};
use crate::game::{Game, Games, RuleProfile, RuleToggle, Rules, RulesError, Seat};
use crate::report::Templates;
use crate::suggest;

pub use email::Email;
pub use mail::{CONFIRMATION_PROBLEMS_SHOWN, ImapSection, MailSettings, SecurityName, SmtpSection};
pub use mail_auth::{AuthName, ClientSecret, OAuthSettings, ProviderName, SignInKeys};
pub use notify::{DEFAULT_DEADLINE_HOURS, Hook, HookError, HookKindName, NewsKind, NotifySettings};
pub use schedule::{Date, MAX_EVERY_HOURS, NmrPolicy, Schedule, TimeOfDay, format_utc};
pub use site::{MAX_DELAY_DAYS, Publish, SiteSettings};

/// A checked campaign.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Campaign {
    /// The short tag in mail subjects (`BIMR3` → `[BIMR3]`).
    pub name: String,
    /// The game id, one of the [`Games`] it was parsed with.
    pub game: String,
    pub title: Option<String>,
    pub description: Option<String>,
    /// The seed every dice stream of the campaign derives from.
    pub seed: u64,
    pub gm: Gm,
    pub max_players: Option<u32>,
    /// The published rule set the file names (`rules_profile`), if any.
    #[serde(default)]
    pub rules_profile: Option<String>,
    /// The rule toggles switched on: the profile's, with the file's `rules`
    /// added and its `rules_off` taken away, checked against the game's list.
    pub rules: Rules,
    pub schedule: Schedule,
    /// Length and starting season, for games with a calendar; filled with
    /// the defaults (one month, no season) when the file has no `[calendar]`.
    pub calendar: Option<CalendarSettings>,
    /// A folder of mail templates overriding the built-in ones.
    pub template_folder: Option<String>,
    pub players: Vec<Player>,
    /// How the daemon receives and sends the campaign's mail; `None` when
    /// the file has no `[mail]` table.
    #[serde(default)]
    pub mail: Option<MailSettings>,
    /// The public pages: what they show and when, where the daemon writes
    /// them; `None` when the file has no `[site]` table (public only).
    #[serde(default)]
    pub site: Option<SiteSettings>,
    /// Webhooks that carry the campaign's public news to where its players
    /// chat; `None` when the file has no `[notify]` table.
    #[serde(default)]
    pub notify: Option<NotifySettings>,
    /// The version of the game's rules its days are played under (README
    /// "Rules versions"). A campaign stored before versions were recorded
    /// played the first.
    #[serde(default = "first_rules_version")]
    pub rules_version: u32,
    /// What players' reports show beyond the game itself.
    #[serde(default)]
    pub report: ReportSettings,
    /// The `[carry_over]` table: what this campaign carries over from an
    /// earlier one, read by the game as it sets up (Magic Realm: each
    /// character's stage under Extended Development).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carry_over: Option<serde_json::Value>,
}

fn first_rules_version() -> u32 {
    1
}

/// The `[report]` table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportSettings {
    /// Players' reports name, after each combat and magic line, the section
    /// of the rules it applied, as the GM's history always does.
    #[serde(default)]
    pub cite_rules: bool,
}

/// The game master, who receives copies and questions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gm {
    #[serde(default)]
    pub name: Option<String>,
    pub email: Email,
}

/// A player as the campaign file lists him.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub name: String,
    pub email: Email,
    /// The character once chosen (Magic Realm); `None` until then.
    pub character: Option<String>,
    /// More addresses playing this seat (a team, as BIMR4's Team 1 and the
    /// team game BIMR5): any of them may send orders with the seat's
    /// secret, and every mail to the seat goes to all of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub team: Vec<Email>,
    /// The further characters of a player who plays several, each at a
    /// seat of its own after his first (`character`), when the game's
    /// rules let a player play several (Magic Realm: 3.1 10.E.4); `None`
    /// for one he chooses by mail during the setup by mail.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_characters: Vec<Option<String>>,
}

impl Campaign {
    /// The team addresses of the seat `player`, as the file gives them;
    /// none for a seat the file does not list or without a team.
    pub fn team_of(&self, player: &str) -> Vec<&str> {
        self.players
            .iter()
            .filter(|p| p.name == player)
            .flat_map(|p| p.team.iter().map(Email::as_str))
            .collect()
    }
}

impl Player {
    /// The seats of this player: his character's, then one for each of
    /// his further characters.
    pub fn seats(&self) -> impl Iterator<Item = Seat> + '_ {
        std::iter::once(self.character.clone())
            .chain(self.more_characters.iter().cloned())
            .map(|role| Seat {
                player: self.name.clone(),
                role,
            })
    }

    /// Every address of the seat: its own first, then its team's.
    pub fn addresses(&self) -> impl Iterator<Item = &Email> {
        std::iter::once(&self.email).chain(&self.team)
    }
}

/// How long the game runs and which season it starts in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CalendarSettings {
    pub months: u32,
    /// The starting season's name as the game spells it; set exactly when
    /// the game's seasons toggle is on.
    pub start_season: Option<String>,
    /// The victory points each character divides among the categories for
    /// the whole game: what the months' seasons ask with the seasons
    /// toggle, else what the file says or 5 a month.
    #[serde(default = "standard_victory_points")]
    pub victory_points: u32,
}

/// Settings stored before the field existed are all of Magic Realm, the
/// only game with a calendar then: its 5 victory points a month.
fn standard_victory_points() -> u32 {
    5
}

/// The most victory points a campaign file may ask for.
pub const MAX_VICTORY_POINTS: u32 = 60;

/// The longest game a campaign file may ask for, in months.
pub const MAX_MONTHS: u32 = 13;
/// The longest campaign tag; it goes in every mail subject.
pub const MAX_TAG_LEN: usize = 16;
/// The longest player name.
pub const MAX_PLAYER_NAME_LEN: usize = 32;

impl Campaign {
    /// Parse and check the campaign file `file` whose contents are `text`,
    /// for one of `games`.
    ///
    /// # Errors
    /// The first problem, naming the file, the line and the field.
    pub fn parse(file: &str, text: &str, games: Games) -> Result<Campaign, DataError> {
        Self::parse_with(file, text, games, Versions::CurrentOnly)
    }

    /// [`Campaign::parse`] for the text of a campaign already stored (read
    /// again by `campaign edit` or an import): it may name an older rules
    /// version, the one the campaign was played under, which the daemon
    /// holds until the GM moves it on. An unknown version is still refused.
    ///
    /// # Errors
    /// The first problem, naming the file, the line and the field.
    pub fn parse_stored(file: &str, text: &str, games: Games) -> Result<Campaign, DataError> {
        Self::parse_with(file, text, games, Versions::AnyKnown)
    }

    fn parse_with(
        file: &str,
        text: &str,
        games: Games,
        versions: Versions,
    ) -> Result<Campaign, DataError> {
        let raw: CampaignFile = parse_toml(file, text).map_err(without_span_markers)?;
        Checker {
            file,
            text,
            games,
            versions,
        }
        .check(raw)
    }

    /// What the campaign plays for a player without orders, in words:
    /// its `nmr` policy with the game's safe orders.
    pub fn missing_orders_rule(&self, games: Games) -> String {
        self.schedule.nmr.describe(self.safe_orders(games))
    }

    /// The schedule in lines, the policy for missing orders worded with
    /// the game's safe orders.
    pub fn schedule_lines(&self, games: Games) -> Vec<String> {
        self.schedule.describe(self.safe_orders(games))
    }

    fn safe_orders(&self, games: Games) -> &'static str {
        self.game(games)
            .map_or("what the game plays for silent players", |g| {
                g.safe_orders()
            })
    }

    /// The game this campaign plays, one of `games`.
    ///
    /// # Errors
    /// The game is not one of `games` (a campaign stored by a build that
    /// had it).
    pub fn game(&self, games: Games) -> anyhow::Result<&'static dyn Game> {
        games.find(&self.game).ok_or_else(|| {
            anyhow::anyhow!(
                "campaign {} plays '{}', which this realmgm does not know (known games: {})",
                self.name,
                self.game,
                games.ids().join(", ")
            )
        })
    }

    /// The toggles switched on, with their descriptions, in the order the
    /// game lists them.
    ///
    /// # Errors
    /// As [`Campaign::game`].
    pub fn toggles_on(&self, games: Games) -> anyhow::Result<Vec<&'static RuleToggle>> {
        let toggles = self.game(games)?.toggles();
        Ok(toggles
            .iter()
            .filter(|t| self.rules.is_on(t.name))
            .collect())
    }

    /// The campaign's report templates: its `template_folder` over the
    /// built-in ones.
    ///
    /// # Errors
    /// The folder cannot be read or holds a broken template.
    pub fn templates(&self) -> anyhow::Result<Templates> {
        match &self.template_folder {
            Some(folder) => Templates::from_folder(Path::new(folder)).with_context(|| {
                format!("the report templates of campaign {} are broken", self.name)
            }),
            None => Ok(Templates::built_in()),
        }
    }

    /// The seats in the order the file lists the players.
    pub fn seats(&self) -> Vec<Seat> {
        self.players.iter().flat_map(Player::seats).collect()
    }
}

/// The file as written, before the checks that need the game or several
/// fields at once. Spans locate those problems in the text.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CampaignFile {
    name: Spanned<String>,
    game: Spanned<String>,
    title: Option<String>,
    description: Option<String>,
    seed: u64,
    max_players: Option<Spanned<u32>>,
    rules_profile: Option<Spanned<String>>,
    #[serde(default)]
    rules: Vec<Spanned<String>>,
    #[serde(default)]
    rules_off: Vec<Spanned<String>>,
    template_folder: Option<Spanned<String>>,
    gm: Gm,
    schedule: Schedule,
    calendar: Option<Spanned<CalendarFile>>,
    #[serde(default)]
    players: Vec<PlayerFile>,
    mail: Option<MailSettings>,
    site: Option<SiteSettings>,
    notify: Option<NotifySettings>,
    rules_version: Option<Spanned<u32>>,
    report: Option<ReportSettings>,
    carry_over: Option<toml::Table>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerFile {
    name: Spanned<String>,
    email: Spanned<Email>,
    character: Option<Spanned<String>>,
    #[serde(default)]
    team: Vec<Spanned<Email>>,
    more_characters: Option<Spanned<MoreCharactersFile>>,
}

/// The most further characters one player may choose by mail: more than
/// any game has characters, and few enough that a typo cannot seat
/// millions.
const MOST_MORE_CHARACTERS: usize = 32;

/// A player's `more_characters` as the file gives them: his further
/// characters by name, or how many he chooses by mail.
enum MoreCharactersFile {
    Named(Vec<Spanned<String>>),
    ByMail(usize),
}

impl PlayerFile {
    /// The further characters the file names (none when they are chosen
    /// by mail).
    fn named_more(&self) -> &[Spanned<String>] {
        match self.more_characters.as_ref().map(Spanned::get_ref) {
            Some(MoreCharactersFile::Named(named)) => named,
            _ => &[],
        }
    }
}

impl<'de> Deserialize<'de> for MoreCharactersFile {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Read;
        impl<'de> serde::de::Visitor<'de> for Read {
            type Value = MoreCharactersFile;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "a list of the player's further characters, e.g. [\"Berserker\"], or how \
                     many he chooses by mail, e.g. 1",
                )
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Self::Value, A::Error> {
                let mut named = Vec::new();
                while let Some(character) = seq.next_element()? {
                    named.push(character);
                }
                Ok(MoreCharactersFile::Named(named))
            }

            fn visit_i64<E: serde::de::Error>(self, count: i64) -> Result<Self::Value, E> {
                usize::try_from(count)
                    .map(MoreCharactersFile::ByMail)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(count), &self))
            }
        }
        deserializer.deserialize_any(Read)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CalendarFile {
    months: Option<Spanned<u32>>,
    start_season: Option<Spanned<String>>,
    victory_points: Option<Spanned<u32>>,
}

/// Which rules versions a campaign file may name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Versions {
    /// A new campaign, or one played now: only the rules this realmgm plays.
    CurrentOnly,
    /// The text of a stored campaign: any version the game has had.
    AnyKnown,
}

/// The checks after parsing, with the text at hand to name lines.
struct Checker<'a> {
    file: &'a str,
    text: &'a str,
    games: Games,
    versions: Versions,
}

impl Checker<'_> {
    fn check(&self, raw: CampaignFile) -> Result<Campaign, DataError> {
        self.check_tag(&raw.name)?;
        let game = self.check_game(&raw.game)?;
        let profile = self.check_profile(raw.rules_profile.as_ref(), game)?;
        let rules = self.check_rules(&raw.rules, profile, &raw.rules_off, game.toggles())?;
        let rules_version = self.check_rules_version(raw.rules_version.as_ref(), game)?;
        if let Some((field, message)) = raw.schedule.problems().into_iter().next() {
            let line = key_line(self.text, Some("schedule"), field);
            return Err(self.at_line(line, &format!("schedule.{field}"), message));
        }
        if let Some((field, message)) = raw.mail.iter().flat_map(|m| m.problems(game)).next() {
            // `imap.client_id` is the key client_id of the table [mail.imap].
            // A key that is missing is named at its table's header.
            let line = match field.rsplit_once('.') {
                Some((table, key)) => {
                    let table = format!("mail.{table}");
                    key_line(self.text, Some(&table), key).or_else(|| {
                        self.text
                            .lines()
                            .position(|l| l.trim() == format!("[{table}]"))
                            .map(|at| at + 1)
                    })
                }
                None => key_line(self.text, Some("mail"), &field),
            };
            return Err(self.at_line(line, &format!("mail.{field}"), message));
        }
        if let Some((field, message)) = raw.site.iter().flat_map(SiteSettings::problems).next() {
            let line = key_line(self.text, Some("site"), field);
            return Err(self.at_line(line, &format!("site.{field}"), message));
        }
        if let Some((field, message)) = raw.notify.iter().flat_map(NotifySettings::problems).next()
        {
            let line = key_line(self.text, Some("notify.hooks"), field)
                .or_else(|| key_line(self.text, Some("notify"), field));
            return Err(self.at_line(line, &format!("notify.{field}"), message));
        }
        // Both are printed on one line in mail headers, the CLI and the log,
        // where a line break would start a line the file's author wrote.
        let one_line = [
            (None, "title", raw.title.as_deref()),
            (Some("gm"), "name", raw.gm.name.as_deref()),
        ];
        for (table, key, text) in one_line {
            if text.is_some_and(|text| text.chars().any(char::is_control)) {
                let field = table.map_or_else(|| key.to_string(), |t| format!("{t}.{key}"));
                return Err(self.at_line(
                    key_line(self.text, table, key),
                    &field,
                    "it holds a line break or another control character; write it on one line",
                ));
            }
        }
        let calendar = self.check_calendar(raw.calendar.as_ref(), game, &rules, &raw.rules)?;
        let players = self.check_players(&raw.players, &raw.gm, raw.max_players.as_ref())?;
        let by_mail = raw.mail.as_ref().is_some_and(|m| m.setup_by_mail);
        for (index, more) in raw
            .players
            .iter()
            .enumerate()
            .filter_map(|(i, p)| Some((i, p.more_characters.as_ref()?)))
        {
            let MoreCharactersFile::ByMail(count) = *more.get_ref() else {
                continue;
            };
            let problem = if count == 0 {
                "more_characters = 0 gives the player no further character; remove the line"
                    .to_string()
            } else if count > MOST_MORE_CHARACTERS {
                format!(
                    "more_characters = {count} is more than a player can play; give at most \
                     {MOST_MORE_CHARACTERS}"
                )
            } else if by_mail {
                continue;
            } else {
                format!(
                    "more_characters = {count} leaves the player's further characters to \
                     choose by mail, which needs setup_by_mail = true in [mail]; turn it on, or \
                     name them, e.g. more_characters = [\"Berserker\"]"
                )
            };
            return Err(self.at(
                more.span(),
                &format!("players[{index}].more_characters"),
                problem,
            ));
        }
        if let Some(refused) = game.campaign_refusal(&rules, by_mail) {
            let line = key_line(self.text, None, "rules")
                .or_else(|| key_line(self.text, None, "rules_profile"));
            return Err(self.at_line(line, "rules", refused));
        }
        if let Some((most, rule)) = game.most_players(&rules)
            && players.len() > most
        {
            let message = format!(
                "the {rule} rule seats at most {most}, and the file lists {} players; remove \
                 players or switch the rule off",
                players.len()
            );
            return Err(self.at_line(key_line(self.text, None, "rules"), "players", message));
        }
        if let Some(folder) = &raw.template_folder
            && folder.get_ref().trim().is_empty()
        {
            return Err(self.at(
                folder.span(),
                "template_folder",
                "the template folder is empty; name a folder or remove the line",
            ));
        }
        Ok(Campaign {
            name: raw.name.into_inner(),
            game: game.id().to_string(),
            title: raw.title,
            description: raw.description,
            seed: raw.seed,
            gm: raw.gm,
            max_players: raw.max_players.map(Spanned::into_inner),
            rules_profile: profile.map(|p| p.name.to_string()),
            rules,
            schedule: raw.schedule,
            calendar,
            template_folder: raw.template_folder.map(Spanned::into_inner),
            players,
            mail: raw.mail,
            site: raw.site,
            notify: raw.notify,
            rules_version,
            report: raw.report.unwrap_or_default(),
            carry_over: raw
                .carry_over
                .map(|table| serde_json::to_value(table).unwrap_or_default()),
        })
    }

    /// The rules version the file names, which must be the one the game
    /// plays (or, for a stored campaign's text, one it played); the one it
    /// plays when the file names none.
    fn check_rules_version(
        &self,
        named: Option<&Spanned<u32>>,
        game: &dyn Game,
    ) -> Result<u32, DataError> {
        let versions = game.rules_versions();
        let current = versions.current;
        let Some(named) = named else {
            return Ok(current.number);
        };
        let number = *named.get_ref();
        if number == current.number {
            return Ok(number);
        }
        let message = match versions.find(number) {
            Some(_) if self.versions == Versions::AnyKnown => return Ok(number),
            Some(old) => format!(
                "rules version {number} ({}) is no longer played: this realmgm plays version {} \
                 ({}); write rules_version = {}",
                old.name, current.number, current.name, current.number
            ),
            None => format!(
                "there is no rules version {number}; this realmgm plays version {} ({}); write \
                 rules_version = {}",
                current.number, current.name, current.number
            ),
        };
        Err(self.at(named.span(), "rules_version", message))
    }

    fn check_tag(&self, name: &Spanned<String>) -> Result<(), DataError> {
        let tag = name.get_ref();
        if is_valid_tag(tag) {
            return Ok(());
        }
        Err(self.at(
            name.span(),
            "name",
            format!(
                "'{tag}' cannot be a campaign tag; use 1 to {MAX_TAG_LEN} letters, digits, '-' \
                 or '_' (it appears in mail subjects as [{}])",
                if tag.is_empty() { "BIMR3" } else { tag }
            ),
        ))
    }

    fn check_game(&self, id: &Spanned<String>) -> Result<&'static dyn Game, DataError> {
        self.games.find(id.get_ref()).ok_or_else(|| {
            let known = self.games.ids();
            let hint = suggest::did_you_mean(id.get_ref(), known.iter().copied());
            self.at(
                id.span(),
                "game",
                format!(
                    "unknown game '{}'{hint}; known games: {}",
                    id.get_ref(),
                    known.join(", ")
                ),
            )
        })
    }

    /// The published rule set the file names, one of the game's.
    fn check_profile(
        &self,
        named: Option<&Spanned<String>>,
        game: &dyn Game,
    ) -> Result<Option<&'static RuleProfile>, DataError> {
        let Some(named) = named else {
            return Ok(None);
        };
        let profiles = game.rule_profiles();
        if let Some(found) = profiles.iter().find(|p| p.name == named.get_ref()) {
            return Ok(Some(found));
        }
        let known: Vec<&str> = profiles.iter().map(|p| p.name).collect();
        let message = if known.is_empty() {
            format!(
                "{} has no published rule sets; remove rules_profile",
                game.id()
            )
        } else {
            format!(
                "unknown rules_profile '{}'; write one of the rule sets {}",
                named.get_ref(),
                known.join(", ")
            )
        };
        Err(self.at(named.span(), "rules_profile", message))
    }

    /// The toggles in force: the profile's, plus `rules`, minus
    /// `rules_off`. Each name is checked where it is written, so a refusal
    /// names its line.
    fn check_rules(
        &self,
        names: &[Spanned<String>],
        profile: Option<&RuleProfile>,
        off: &[Spanned<String>],
        known: &[RuleToggle],
    ) -> Result<Rules, DataError> {
        let in_profile = |name: &str| profile.is_some_and(|p| p.on.contains(&name));
        for (index, name) in names.iter().enumerate() {
            let field = format!("rules[{index}]");
            Rules::new([name.get_ref().as_str()], known)
                .map_err(|refused| self.at(name.span(), &field, refused.to_string()))?;
            if let Some(profile) = profile.filter(|_| in_profile(name.get_ref())) {
                let message = format!(
                    "'{}' is already in the rule set '{}'; remove it from rules",
                    name.get_ref(),
                    profile.name
                );
                return Err(self.at(name.span(), &field, message));
            }
            for earlier in &names[..index] {
                if earlier.get_ref() == name.get_ref() {
                    let message = format!("'{}' is listed twice; remove one", name.get_ref());
                    return Err(self.at(name.span(), &field, message));
                }
            }
        }
        for (index, name) in off.iter().enumerate() {
            let field = format!("rules_off[{index}]");
            let message = match profile {
                None => Some(
                    "rules_off takes rules away from a rules_profile, and the file names none; \
                     remove rules_off, or name the rule set it changes"
                        .to_string(),
                ),
                Some(profile) if !in_profile(name.get_ref()) => Some(format!(
                    "'{}' is not in the rule set '{}' (it has {}); remove it from rules_off",
                    name.get_ref(),
                    profile.name,
                    if profile.on.is_empty() {
                        "none".to_string()
                    } else {
                        profile.on.join(", ")
                    }
                )),
                Some(_) if off[..index].iter().any(|e| e.get_ref() == name.get_ref()) => {
                    Some(format!("'{}' is listed twice; remove one", name.get_ref()))
                }
                Some(_) => None,
            };
            if let Some(message) = message {
                return Err(self.at(name.span(), &field, message));
            }
        }
        let from_profile: Vec<&str> = profile
            .into_iter()
            .flat_map(|p| p.on.iter().copied())
            .filter(|name| !off.iter().any(|o| o.get_ref() == name))
            .collect();
        for (index, name) in names.iter().enumerate() {
            let before = from_profile
                .iter()
                .copied()
                .chain(names[..index].iter().map(|n| n.get_ref().as_str()));
            let excludes = known
                .iter()
                .find(|t| t.name == name.get_ref())
                .map_or(&[][..], |t| t.excludes);
            if let Some(other) = before.into_iter().find(|b| excludes.contains(b)) {
                let refused = RulesError::Exclusive {
                    first: other.to_string(),
                    second: name.get_ref().clone(),
                };
                return Err(self.at(name.span(), &format!("rules[{index}]"), refused.to_string()));
            }
        }
        let in_force = from_profile
            .into_iter()
            .chain(names.iter().map(|n| n.get_ref().as_str()));
        Rules::new(in_force, known).map_err(|refused| {
            let line = key_line(self.text, None, "rules_profile")
                .or_else(|| key_line(self.text, None, "rules"));
            self.at_line(line, "rules", refused.to_string())
        })
    }

    fn check_calendar(
        &self,
        calendar: Option<&Spanned<CalendarFile>>,
        game: &dyn Game,
        rules: &Rules,
        rule_names: &[Spanned<String>],
    ) -> Result<Option<CalendarSettings>, DataError> {
        let Some(known) = game.calendar() else {
            return match calendar {
                Some(section) => Err(self.at(
                    section.span(),
                    "calendar",
                    format!("{} has no calendar; remove the [calendar] table", game.id()),
                )),
                None => Ok(None),
            };
        };
        let empty = CalendarFile {
            months: None,
            start_season: None,
            victory_points: None,
        };
        let section = calendar.map_or(&empty, Spanned::get_ref);
        let months = match &section.months {
            Some(months) if !(1..=MAX_MONTHS).contains(months.get_ref()) => {
                return Err(self.at(
                    months.span(),
                    "calendar.months",
                    format!(
                        "a game of {} months is not possible; write 1 to {MAX_MONTHS}",
                        months.get_ref()
                    ),
                ));
            }
            Some(months) => *months.get_ref(),
            None => 1,
        };
        let seasons_on = rules.is_on(known.seasons_toggle);
        let start_season = match (&section.start_season, seasons_on) {
            (Some(season), true) => {
                let Some(found) = suggest::find(season.get_ref(), known.seasons.iter().copied())
                else {
                    let hint =
                        suggest::did_you_mean(season.get_ref(), known.seasons.iter().copied());
                    return Err(self.at(
                        season.span(),
                        "calendar.start_season",
                        format!(
                            "unknown season '{}'{hint}; the seasons are {}",
                            season.get_ref(),
                            known.seasons.join(", ")
                        ),
                    ));
                };
                Some(found.to_string())
            }
            (Some(season), false) => {
                return Err(self.at(
                    season.span(),
                    "calendar.start_season",
                    format!(
                        "a starting season only matters with the '{}' rule; add it to rules or \
                         remove start_season",
                        known.seasons_toggle
                    ),
                ));
            }
            (None, true) => {
                let toggle = rule_names
                    .iter()
                    .position(|n| n.get_ref() == known.seasons_toggle);
                let message = format!(
                    "the '{}' rule needs a starting season: add start_season to [calendar] \
                     (one of {})",
                    known.seasons_toggle,
                    known.seasons.join(", ")
                );
                return Err(match toggle {
                    Some(index) => self.at(
                        rule_names[index].span(),
                        &format!("rules[{index}]"),
                        message,
                    ),
                    None => DataError::file(self.file, message),
                });
            }
            (None, false) => None,
        };
        let victory_points =
            self.victory_points(section, &known, months, start_season.as_deref())?;
        Ok(Some(CalendarSettings {
            months,
            start_season,
            victory_points,
        }))
    }

    /// The victory points of the whole game. With seasons each month asks
    /// its season's points and a file that names another total is refused,
    /// never changed; without them the file may name any total (by default
    /// the calendar's: for Magic Realm one point plus one a week).
    fn victory_points(
        &self,
        section: &CalendarFile,
        known: &crate::game::Calendar,
        months: u32,
        start_season: Option<&str>,
    ) -> Result<u32, DataError> {
        let first = start_season.and_then(|s| known.seasons.iter().position(|k| *k == s));
        let by_seasons = first.map(|first| {
            (0..months as usize)
                .map(|m| (known.season_points)(known.seasons[(first + m) % known.seasons.len()]))
                .sum::<u32>()
        });
        let Some(named) = &section.victory_points else {
            return Ok(by_seasons.unwrap_or_else(|| known.points_for(months)));
        };
        let value = *named.get_ref();
        match by_seasons {
            Some(needed) if needed != value => Err(self.at(
                named.span(),
                "calendar.victory_points",
                format!(
                    "with the '{}' rule the seasons set the victory points: {} \
                     from {} ask {needed}, not {value}; write {needed} or leave the line out",
                    known.seasons_toggle,
                    crate::words::counted(months, "month", "months"),
                    start_season.unwrap_or_default()
                ),
            )),
            _ if !(1..=MAX_VICTORY_POINTS).contains(&value) => Err(self.at(
                named.span(),
                "calendar.victory_points",
                format!("{value} victory points is not possible; write 1 to {MAX_VICTORY_POINTS}"),
            )),
            _ => Ok(value),
        }
    }

    fn check_players(
        &self,
        players: &[PlayerFile],
        gm: &Gm,
        max_players: Option<&Spanned<u32>>,
    ) -> Result<Vec<Player>, DataError> {
        if let Some(max) = max_players {
            if *max.get_ref() == 0 {
                return Err(self.at(
                    max.span(),
                    "max_players",
                    "a campaign needs room for at least one player",
                ));
            }
            if players.len() > *max.get_ref() as usize {
                let message = format!(
                    "the file lists {} players but max_players is {}; raise max_players or \
                     remove a player",
                    players.len(),
                    max.get_ref()
                );
                return Err(self.at(max.span(), "max_players", message));
            }
        }
        let mut checked: Vec<Player> = Vec::with_capacity(players.len());
        for (index, player) in players.iter().enumerate() {
            let name = player.name.get_ref();
            let field = |key: &str| format!("players[{index}].{key}");
            if let Some(why) = player_name_problem(name) {
                let message = format!("'{name}' cannot be a player name: {why}");
                return Err(self.at(player.name.span(), &field("name"), message));
            }
            let addresses = std::iter::once((&player.email, "email".to_string())).chain(
                player
                    .team
                    .iter()
                    .enumerate()
                    .map(|(i, e)| (e, format!("team[{i}]"))),
            );
            let mut seen: Vec<&Email> = Vec::new();
            for (address, key) in addresses {
                let email = address.get_ref();
                let owner = if email.folded() == gm.email.folded() {
                    Some("the GM's address".to_string())
                } else if seen.iter().any(|s| s.folded() == email.folded()) {
                    Some("named twice for this seat".to_string())
                } else {
                    checked.iter().enumerate().find_map(|(other_index, other)| {
                        other
                            .addresses()
                            .any(|a| a.folded() == email.folded())
                            .then(|| {
                                format!(
                                    "already an address of {} (players[{other_index}])",
                                    other.name
                                )
                            })
                    })
                };
                if let Some(owner) = owner {
                    let message =
                        format!("{email} is {owner}; each seat needs addresses of its own");
                    return Err(self.at(address.span(), &field(&key), message));
                }
                seen.push(email);
            }
            let email = player.email.get_ref();
            for (other_index, other) in checked.iter().enumerate() {
                if suggest::fold(&other.name) == suggest::fold(name) {
                    let message = format!(
                        "the name '{name}' is already used by players[{other_index}]; player \
                         names must differ (case and accents ignored)"
                    );
                    return Err(self.at(player.name.span(), &field("name"), message));
                }
            }
            if player.character.is_none()
                && let Some(more) = player.named_more().first()
            {
                let message = "more_characters follow the player's first character; name it \
                               in character";
                return Err(self.at(more.span(), &field("more_characters"), message));
            }
            let named = player
                .character
                .iter()
                .map(|c| (c, field("character")))
                .chain(
                    player
                        .named_more()
                        .iter()
                        .enumerate()
                        .map(|(i, c)| (c, field(&format!("more_characters[{i}]")))),
                );
            let mut mine: Vec<&str> = Vec::new();
            for (character, key) in named {
                let wanted = character.get_ref();
                if wanted.trim().is_empty() {
                    let message = "the character is empty; name it or remove the line";
                    return Err(self.at(character.span(), &key, message));
                }
                let same = |c: &str| suggest::fold(c) == suggest::fold(wanted);
                let taken = checked
                    .iter()
                    .position(|other| other.seats().any(|s| s.role.as_deref().is_some_and(same)));
                if let Some(other_index) = taken {
                    let message = format!(
                        "{wanted} is already played by {} (players[{other_index}]); each \
                         character can be played once",
                        checked[other_index].name
                    );
                    return Err(self.at(character.span(), &key, message));
                }
                if mine.iter().any(|c| same(c)) {
                    let message = format!("{name} names {wanted} twice; each character plays once");
                    return Err(self.at(character.span(), &key, message));
                }
                mine.push(wanted);
            }
            checked.push(Player {
                name: name.clone(),
                email: email.clone(),
                character: player.character.as_ref().map(|c| c.get_ref().clone()),
                team: player.team.iter().map(|e| e.get_ref().clone()).collect(),
                more_characters: match player.more_characters.as_ref().map(Spanned::get_ref) {
                    Some(MoreCharactersFile::Named(named)) => {
                        named.iter().map(|c| Some(c.get_ref().clone())).collect()
                    }
                    Some(MoreCharactersFile::ByMail(count)) => vec![None; *count],
                    None => Vec::new(),
                },
            });
        }
        Ok(checked)
    }

    fn at(&self, span: Range<usize>, field: &str, message: impl Into<String>) -> DataError {
        self.at_line(Some(line_of(self.text, span.start)), field, message)
    }

    fn at_line(&self, line: Option<usize>, field: &str, message: impl Into<String>) -> DataError {
        DataError {
            file: self.file.to_string(),
            line,
            entry: None,
            field: Some(field.to_string()),
            message: message.into(),
        }
    }
}

/// The field path without the private key through which `toml::Spanned`
/// reads its value, which serde_path_to_error records like a real field.
fn without_span_markers(mut error: DataError) -> DataError {
    if let Some(field) = &mut error.field {
        *field = field.replace(".$__serde_spanned_private_value", "");
    }
    error
}

/// Whether `tag` can name a campaign: 1 to [`MAX_TAG_LEN`] ASCII letters,
/// digits, '-' or '_', since it goes into every mail subject.
pub fn is_valid_tag(tag: &str) -> bool {
    !tag.is_empty()
        && tag.len() <= MAX_TAG_LEN
        && tag
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Why `name` cannot be a player's name, if it cannot.
pub fn player_name_problem(name: &str) -> Option<String> {
    if name.trim().is_empty() {
        return Some("it is empty".to_string());
    }
    if name.trim() != name {
        return Some("it starts or ends with a space".to_string());
    }
    if name.chars().count() > MAX_PLAYER_NAME_LEN {
        return Some(format!(
            "it is longer than {MAX_PLAYER_NAME_LEN} characters"
        ));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '\'' | '.')))
    {
        return Some(format!(
            "'{bad}' is not allowed; use letters, digits, spaces, '-', '_', '.' or apostrophes"
        ));
    }
    None
}

/// Why the folder setting `path` is refused, if it is: a relative path is
/// anchored at the database's folder, and one whose `..` climb out of it
/// would put mail or pages where the GM may not have looked (another
/// campaign's folder, a system folder). Going outside is allowed as an
/// absolute path, the GM's explicit choice.
pub(crate) fn leaves_the_database_folder(path: &str) -> Option<String> {
    use std::path::Component;
    let mut depth = 0_usize;
    for part in std::path::Path::new(path).components() {
        match part {
            Component::Prefix(_) | Component::RootDir => return None,
            Component::CurDir => {}
            Component::Normal(_) => depth += 1,
            Component::ParentDir if depth > 0 => depth -= 1,
            Component::ParentDir => {
                return Some(format!(
                    "'{path}' leaves the database's folder through '..'; give an absolute path \
                     if you mean a folder outside the database's, or a path inside it"
                ));
            }
        }
    }
    None
}

/// The 1-based line of a byte offset in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The line where `key` is set, at the top level (`table` = `None`) or in
/// the `[table]` header's table; for problems found in plain fields.
fn key_line(text: &str, table: Option<&str>, key: &str) -> Option<usize> {
    let mut current: Option<String> = None;
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[') {
            let header = header.trim_start_matches('[');
            let name = header.split(']').next().unwrap_or_default().trim();
            current = Some(name.to_string());
            continue;
        }
        let Some((left, _)) = line.split_once('=') else {
            continue;
        };
        if current.as_deref() == table && left.trim() == key {
            return Some(index + 1);
        }
    }
    None
}

#[cfg(test)]
mod tests;
