//! Setup by mail in the daemon, for a campaign whose `[mail]`
//! table says `setup_by_mail = true`: before day 1 a player's mail goes to
//! the game's setup state machine instead of the orders (characters, tiles
//! when the players build the board, starting info)
//! ([`crate::magic_realm::setup::by_mail`]); its progress is stored after
//! every mail; whoever must act next is mailed; every player's starting
//! info is copied to the GM (it is secret from the other players); and once
//! it is complete the game starts with the chosen characters and starts.

use anyhow::{anyhow, bail};

use crate::game::Seat;
use crate::magic_realm::setup::by_mail::{SetupByMail, Stage};
use crate::store::{PlayerRecord, StoredCampaign};

use super::Turns;
use crate::daemon::mail_in::ingest::Letter;
use crate::daemon::orders::confirm::marker;

/// Where a campaign's setup by mail stands.
pub(crate) enum SetupOutcome {
    /// What the setup still waits for, as the GM's status shows it.
    Waiting(String),
    /// Every choice is in: the seats and the game's record of the choices.
    Ready(Vec<Seat>, serde_json::Value),
}

impl Turns<'_> {
    /// Whether `stored` is still being set up by mail.
    ///
    /// # Errors
    /// The store fails.
    pub fn setting_up_by_mail(&self, stored: &StoredCampaign) -> anyhow::Result<bool> {
        let by_mail = stored
            .campaign
            .mail
            .as_ref()
            .is_some_and(|m| m.setup_by_mail);
        Ok(by_mail && self.store.days().latest(&stored.campaign.name)?.is_none())
    }

    /// The setup so far (a new one, seat order, before the first mail).
    fn setup_record(&self, stored: &StoredCampaign) -> anyhow::Result<SetupByMail> {
        let campaign = &stored.campaign;
        if campaign.game != "magic-realm" {
            bail!(
                "setup by mail is not implemented for {} yet; remove setup_by_mail from [mail]",
                campaign.game
            );
        }
        Ok(
            match self.store.campaigns().setup_progress(&campaign.name)? {
                Some(json) => {
                    let mut record: SetupByMail = serde_json::from_value(json)?;
                    let data = crate::magic_realm::data::get().map_err(|e| anyhow!("{e}"))?;
                    record.deal_if_undealt(data, campaign.seed);
                    record
                }
                None => {
                    let mut record = SetupByMail::new(
                        stored.players.iter().map(|p| p.name.clone()).collect(),
                        &campaign.rules,
                        crate::magic_realm::data::get().map_err(|e| anyhow!("{e}"))?,
                        campaign.seed,
                        campaign
                            .calendar
                            .as_ref()
                            .map_or(crate::game::VICTORY_POINTS_PER_MONTH, |c| c.victory_points),
                    );
                    // A character the campaign file gives a player is his
                    // choice: only the others choose by mail.
                    record.characters = stored
                        .players
                        .iter()
                        .filter_map(|p| Some((p.name.clone(), p.character.clone()?)))
                        .collect();
                    record
                }
            },
        )
    }

    /// A player's mail while the campaign is set up by mail. Returns a note.
    ///
    /// # Errors
    /// The store fails or the game data is broken.
    pub(crate) fn setup_mail(
        &mut self,
        stored: &StoredCampaign,
        player: &PlayerRecord,
        letter: &Letter,
        now: i64,
    ) -> anyhow::Result<String> {
        self.setup_submit(
            stored,
            player,
            &letter.text,
            letter.answering(),
            letter.inbound_id,
            now,
        )
        .map(|(note, _)| note)
    }

    /// Submit `text` to the setup for `player` (his mail, or the GM's
    /// entry for him): the player gets the answer. Returns a note for the
    /// log and the answer.
    ///
    /// # Errors
    /// The store fails or the game data is broken.
    pub(crate) fn setup_submit(
        &mut self,
        stored: &StoredCampaign,
        player: &PlayerRecord,
        text: &str,
        answering: Option<(&str, &[String])>,
        inbound_id: Option<i64>,
        now: i64,
    ) -> anyhow::Result<(String, String)> {
        let campaign = &stored.campaign;
        let data = crate::magic_realm::data::get().map_err(|e| anyhow!("{e}"))?;
        let mut record = self.setup_record(stored)?;
        let before = record.stage();
        let head = format!("{} setup ===\n\n", marker(&campaign.name));
        let outcome = record.submit(&player.name, text, data);
        let info_recorded = matches!(before, Stage::StartingInfo(_)) && outcome.is_ok();
        let (body, note) = match outcome {
            Ok(done) => (
                format!("{head}{done}\n"),
                format!("setup by mail: {}: {done}", player.name),
            ),
            Err(problems) => (
                format!(
                    "{head}Nothing was recorded:\n{}\n",
                    problems
                        .iter()
                        .map(|p| format!("  - {p}\n"))
                        .collect::<String>()
                ),
                format!(
                    "setup by mail: {} refused ({})",
                    player.name,
                    crate::words::counted(problems.len(), "problem", "problems")
                ),
            ),
        };
        self.store
            .campaigns_mut()
            .save_setup_progress(&campaign.name, &serde_json::to_value(&record)?)?;
        self.outbox()
            .queue(campaign, &player.email, "Re: setup", &body, answering, now)?;
        if let Some(info) = record.info.get(&player.name).filter(|_| info_recorded) {
            let character = record
                .characters
                .get(&player.name)
                .cloned()
                .unwrap_or_default();
            let text = format!(
                "Starting info of {} (the {character}), secret from the other players:\n\
                 Victory: GT {}, SP {}, F {}, N {}, G {}\nStart: {}\nSpells: {}\nEnchanted: {}",
                player.name,
                info.victory.great_treasures,
                info.victory.spells,
                info.victory.fame,
                info.victory.notoriety,
                info.victory.gold,
                info.start.label(),
                none_if_empty(&info.spells),
                none_if_empty(&info.enchanted)
            ) + &record.extra_choices(&player.name);
            self.outbox()
                .tell_gm(campaign, "setup", "starting info", &text, inbound_id, now)?;
        }
        // The starting info is asked of everyone at once: an answer that
        // leaves others to answer is no new stage to announce.
        let next_stage = match (&before, record.stage()) {
            (Stage::StartingInfo(_), Stage::StartingInfo(_)) => false,
            (before, after) => *before != after,
        };
        if next_stage {
            self.announce_stage(stored, &record, now)?;
        }
        Ok((note, body))
    }

    /// The line `gm status` shows while the campaign is set up by mail.
    ///
    /// # Errors
    /// The store fails.
    pub(crate) fn setup_status(&self, stored: &StoredCampaign) -> anyhow::Result<String> {
        let record = self.setup_record(stored)?;
        Ok(match record.stage() {
            Stage::Choosing(next) => format!(
                "Setup by mail: {next} chooses a character next ({} of {} chosen)",
                record.characters.len(),
                record.order.len()
            ),
            Stage::Placing(next) => format!(
                "Setup by mail: {next} places the next tile ({} of 20 placed)",
                record.placements.len()
            ),
            Stage::PlacingVisitors(next) => format!(
                "Setup by mail: {next} places the next visitor or mission chit ({} placed)",
                record.visitors.len()
            ),
            Stage::StartingInfo(waiting) => format!(
                "Setup by mail: waiting for the starting info of {}",
                waiting.join(", ")
            ),
            Stage::Complete => {
                "Setup by mail: complete; the game starts at the daemon's next look".to_string()
            }
        })
    }

    /// Mail whoever must act now; the GM hears when the setup is complete.
    fn announce_stage(
        &mut self,
        stored: &StoredCampaign,
        record: &SetupByMail,
        now: i64,
    ) -> anyhow::Result<()> {
        let campaign = &stored.campaign;
        let head = format!("{} setup ===\n\n", marker(&campaign.name));
        match record.stage() {
            Stage::Choosing(next) => {
                let Some(player) = stored.players.iter().find(|p| p.name == next) else {
                    return Ok(());
                };
                let equipment = if record.build_board {
                    "You have no tile left, so you pick your character now, and with him the \
                     native group whose stock supplies his starting weapon and armour. Answer \
                     with the lines `Character: <name>` and `Equipment: <native group>`"
                } else {
                    "It is your turn to choose a character. Answer with a line `Character: \
                     <name>`"
                };
                let body = format!(
                    "{head}{equipment} (and your `Password:` line).\nTaken so far: {}\n",
                    none_if_empty(&record.characters.values().cloned().collect::<Vec<_>>())
                );
                self.outbox().queue(
                    campaign,
                    &player.email,
                    "your turn to choose",
                    &body,
                    None,
                    now,
                )?;
            }
            Stage::Placing(next) => {
                let Some(player) = stored.players.iter().find(|p| p.name == next) else {
                    return Ok(());
                };
                let data = crate::magic_realm::data::get().map_err(|e| anyhow!("{e}"))?;
                let placed: Vec<String> = record
                    .placements
                    .iter()
                    .map(|p| {
                        format!(
                            "{} at {},{} rotation {}",
                            p.tile, p.at.q, p.at.r, p.rotation
                        )
                    })
                    .collect();
                let hint = record
                    .legal_example(&next, data)
                    .map_or(String::new(), |p| {
                        format!(
                            "\nOne legal place, for example: Place: {} at {},{} rotation {}",
                            p.tile, p.at.q, p.at.r, p.rotation
                        )
                    });
                let body = format!(
                    "{head}It is your turn to place a tile. Answer with a line `Place: <tile> at \
                     <q>,<r> rotation <0-5>` (the Borderland goes first, at 0,0).\nPlaced so far: \
                     {}\nYour tiles: {}\nTiles left: {}{hint}\n",
                    none_if_empty(&placed),
                    none_if_empty(&record.hands.get(&next).cloned().unwrap_or_default()),
                    record.tiles_left(data).join(", ")
                );
                self.outbox().queue(
                    campaign,
                    &player.email,
                    "your turn to place a tile",
                    &body,
                    None,
                    now,
                )?;
            }
            Stage::PlacingVisitors(next) => {
                let Some(player) = stored.players.iter().find(|p| p.name == next) else {
                    return Ok(());
                };
                let data = crate::magic_realm::data::get().map_err(|e| anyhow!("{e}"))?;
                let chits: Vec<String> = record
                    .chits_left(data)
                    .iter()
                    .map(|(a, b)| format!("{a}/{b}"))
                    .collect();
                let body = format!(
                    "{head}It is your turn to place a visitor or mission chit in a row-6 box, \
                     face up on the side you name. Answer with a line `Visitor: <chit> in \
                     <box>`.\nChits left: {}\nEmpty boxes: {}\n",
                    chits.join(", "),
                    record.boxes_left(data).join(", ")
                );
                self.outbox().queue(
                    campaign,
                    &player.email,
                    "your turn to place a chit",
                    &body,
                    None,
                    now,
                )?;
            }
            Stage::StartingInfo(waiting) => {
                let data = crate::magic_realm::data::get().map_err(|e| anyhow!("{e}"))?;
                for player in stored.players.iter().filter(|p| waiting.contains(&p.name)) {
                    let body = format!(
                        "{head}Every character is chosen. Send the GM your starting info, one \
                         line each, and your `Password:` line:\n{}",
                        record.info_asked(&player.name, data)
                    );
                    self.outbox().queue(
                        campaign,
                        &player.email,
                        "starting info",
                        &body,
                        None,
                        now,
                    )?;
                }
            }
            Stage::Complete => {
                self.outbox().tell_gm(
                    campaign,
                    "setup",
                    "setup complete",
                    "Every player has chosen and sent the starting info; the game starts at \
                     the daemon's next look.",
                    None,
                    now,
                )?;
            }
        }
        Ok(())
    }

    /// Before the game starts: what the setup still waits for, or the seats
    /// and the game's record of the choices. The first call begins the
    /// setup and mails the first chooser.
    ///
    /// # Errors
    /// The store fails, or the game cannot be set up by mail.
    pub(crate) fn setup_outcome(
        &mut self,
        stored: &StoredCampaign,
        now: i64,
    ) -> anyhow::Result<SetupOutcome> {
        let name = &stored.campaign.name;
        let record = self.setup_record(stored)?;
        let json = serde_json::to_value(&record)?;
        if self.store.campaigns().setup_progress(name)?.is_none() {
            self.store
                .campaigns_mut()
                .save_setup_progress(name, &json)?;
            self.announce_stage(stored, &record, now)?;
        }
        match record.stage() {
            Stage::Choosing(next) => Ok(SetupOutcome::Waiting(format!(
                "setup by mail: {next} chooses a character next"
            ))),
            Stage::Placing(next) => Ok(SetupOutcome::Waiting(format!(
                "setup by mail: {next} places the next tile ({} of 20 placed)",
                record.placements.len()
            ))),
            Stage::PlacingVisitors(next) => Ok(SetupOutcome::Waiting(format!(
                "setup by mail: {next} places the next visitor or mission chit"
            ))),
            Stage::StartingInfo(waiting) => Ok(SetupOutcome::Waiting(format!(
                "setup by mail: waiting for the starting info of {}",
                waiting.join(", ")
            ))),
            Stage::Complete => {
                let mut seats = Vec::new();
                for player in &stored.players {
                    let character = record.characters.get(&player.name).cloned();
                    if let Some(character) = &character {
                        self.store
                            .players_mut()
                            .set_character(name, &player.name, character)?;
                    }
                    seats.push(Seat {
                        player: player.name.clone(),
                        character,
                    });
                }
                Ok(SetupOutcome::Ready(seats, json))
            }
        }
    }
}

fn none_if_empty(items: &[String]) -> String {
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join("; ")
    }
}
