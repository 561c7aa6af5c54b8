//! What the daemon tells a game's reports besides the state and events:
//! the campaign's tag, the next deadline, the season of the day,
//! the private messages each player received, each player's accepted orders (their standing instructions pre-fill his
//! orders form) and the campaign's own templates.

use std::collections::BTreeMap;

use crate::campaign::{Campaign, format_utc};
use crate::game::{AcceptedOrders, Game};
use crate::report::{GmWords, PrivateMessage, ReportContext};
use crate::store::{RelayedMessage, Store, StoreError};

/// The season of `day` when the campaign plays with seasons.
pub fn season_of(game: &dyn Game, campaign: &Campaign, day: u32) -> Option<String> {
    let start = campaign.calendar.as_ref()?.start_season.as_deref()?;
    game.calendar()?.season_of(start, day).map(str::to_string)
}

/// What the GM wrote for `day`: announcements and narrative.
///
/// # Errors
/// No such campaign, or the database fails.
pub fn gm_words(store: &Store, campaign: &str, day: u32) -> Result<GmWords, StoreError> {
    Ok(GmWords {
        announcements: store.announcements().of_day(campaign, day)?,
        narrative: store.announcements().narrative(campaign, day)?,
    })
}

/// The report context of `day`, whose next orders are due at `deadline`
/// (`None` when the game is over), with the private messages passed on
/// while it was pending.
///
/// # Errors
/// The campaign's templates are broken.
pub fn report_context(
    game: &dyn Game,
    campaign: &Campaign,
    day: u32,
    deadline: Option<i64>,
    orders: &BTreeMap<String, AcceptedOrders>,
    relayed: &[RelayedMessage],
    words: GmWords,
) -> anyhow::Result<ReportContext> {
    let mut messages: BTreeMap<String, Vec<PrivateMessage>> = BTreeMap::new();
    for message in relayed {
        messages
            .entry(message.recipient.clone())
            .or_default()
            .push(PrivateMessage {
                from: message.sender.clone(),
                text: message.text.clone(),
            });
    }
    Ok(ReportContext {
        campaign: campaign.name.clone(),
        deadline: deadline.map(format_utc),
        season: season_of(game, campaign, day),
        messages,
        standing_orders: orders
            .iter()
            .map(|(player, accepted)| (player.clone(), accepted.canonical.clone()))
            .collect(),
        rules: campaign.rules.clone(),
        announcements: words.announcements,
        narrative: words.narrative,
        cite_rules: campaign.report.cite_rules,
        templates: campaign.templates()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use realmgm_magic_realm::game::MagicRealm;

    fn campaign(extra: &str) -> Campaign {
        let text = format!(
            "name = \"S\"\ngame = \"magic-realm\"\nseed = 1\n{extra}\n[gm]\nemail = \"gm@x.test\"\n\
             [schedule]\nfirst_deadline = \"2030-01-01\"\nat = \"20:00\"\nevery_hours = 24\n"
        );
        Campaign::parse("s.toml", &text, crate::TEST_GAMES).unwrap()
    }

    #[test]
    fn the_season_follows_the_calendar_month_by_month() {
        let with = campaign(
            "rules = [\"seasons_and_weather\"]\n[calendar]\nmonths = 3\nstart_season = \"Autumn\"",
        );
        let first = season_of(&MagicRealm, &with, 1).unwrap();
        assert_eq!(first, "Autumn");
        let next = season_of(&MagicRealm, &with, 29).unwrap();
        assert_ne!(next, first, "day 29 is in the second month");
        assert_eq!(season_of(&MagicRealm, &campaign(""), 1), None);
    }
}
