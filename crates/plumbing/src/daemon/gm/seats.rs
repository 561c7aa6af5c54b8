//! Players coming and going in a running campaign: a player
//! joins (with a character the GM names, or choosing one by mail with a
//! `Character:` line), a seat passes to a new address (and, when asked, to
//! another character), a player leaves (his character leaves the Realm, or
//! stays, played by the policy for missing orders). Each keeps the history
//! and tells the players concerned.

use crate::campaign::{Email, Player, format_utc};
use crate::game::StartingInfoRefused;
use crate::game::{GmRuling, Seat};
use crate::store::{PlayerRecord, PlayerSecret, StoredCampaign};

use super::seat;
use crate::daemon::mail_in::ingest::Letter;
use crate::daemon::orders::confirm::marker;
use crate::daemon::orders::player::Submission;

part! {
    /// The seats of a running campaign: players joining, changing address
    /// or character, and leaving.
    Seats
}

impl Seats<'_> {
    /// Whether `seat` can join the campaign now: before the game begins
    /// anyone can; once it has, the game must take late players and a
    /// character the seat names must be one it can let in (checked against
    /// the latest day, so a typo is refused before it is stored). A seat
    /// naming no character chooses one by mail.
    ///
    /// # Errors
    /// The seat cannot join, and why.
    pub fn check_new_seat(&self, stored: &StoredCampaign, seat: &Seat) -> anyhow::Result<()> {
        let campaign = &stored.campaign;
        let game = self.game(campaign)?;
        if let Some((most, rule)) = game.most_players(&campaign.rules)
            && stored.seats().len() >= most
        {
            anyhow::bail!(
                "{} plays under the {rule} rule, which seats at most {most}, and it has {}; \
                 `gm replace` gives a seat to a new address",
                campaign.name,
                stored.seats().len()
            );
        }
        let Some(latest) = self.store.days().latest(&campaign.name)? else {
            return Ok(());
        };
        let Some(late) = game.seats() else {
            anyhow::bail!(
                "{} takes no new players once the game has begun; `gm replace` gives a seat to a \
                 new address",
                campaign.game
            );
        };
        let mut seats = stored.seats();
        seats.push(seat.clone());
        late.admit(&latest.state, &campaign.rules, &seats)?;
        Ok(())
    }

    /// Add a player to the campaign and mail him his secret, with how to
    /// choose his character when the game has begun and he has none.
    ///
    /// # Errors
    /// No such campaign, a bad or taken address or name, a character the
    /// game cannot let in.
    pub fn add_player(
        &mut self,
        name: &str,
        player: &str,
        email: &str,
        character: Option<&str>,
        now: i64,
    ) -> anyhow::Result<PlayerSecret> {
        let stored = self.campaign(name)?;
        let email = Email::try_from(email.to_string()).map_err(anyhow::Error::msg)?;
        // A setup by mail deals its turns to the seats it began with; a seat
        // added meanwhile is in none of them and the game could never start.
        if self.setup_by_mail_under_way(name)? {
            anyhow::bail!(
                "the setup by mail of {name} has begun with the players it had, and {player} \
                 would have no part in it, so the game could not start; add {player} once the \
                 game has begun (when every player has sent his starting info): he then \
                 chooses his character by mail and enters at the Inn"
            );
        }
        self.check_new_seat(
            &stored,
            &Seat {
                player: player.to_string(),
                role: character.map(str::to_string),
            },
        )?;
        let made = self.store.players_mut().add(
            name,
            &Player {
                name: player.to_string(),
                email,
                character: character.map(str::to_string),
                team: Vec::new(),
                more_characters: Vec::new(),
            },
            now,
        )?;
        let choosing = match character {
            Some(_) => self
                .starting_info_owed(&self.campaign(name)?, &made.player)?
                .unwrap_or_default(),
            None => self.choose_a_character_hint(&stored)?,
        };
        self.welcome(
            &stored,
            &made,
            &format!("you have joined as {} in", made.player),
            &choosing,
            now,
        )?;
        self.store.control_mut().log_gm(
            Some(name),
            now,
            "gm",
            &format!("{} <{}> joined", made.player, made.email),
            None,
        )?;
        Ok(made)
    }

    /// Whether the players of `name` are setting the game up by mail: the
    /// setup has begun and the game has not.
    fn setup_by_mail_under_way(&self, name: &str) -> anyhow::Result<bool> {
        Ok(self.store.days().latest(name)?.is_none()
            && self.store.campaigns().setup_progress(name)?.is_some())
    }

    /// Give the seat of `player` to `email` with a new secret; with
    /// `character`, the seat also plays that character from the next turn
    /// (the old one leaves the Realm, the new one enters at the Inn: a
    /// ruling). The old address is told, the newcomer welcomed.
    ///
    /// # Errors
    /// No such campaign or seat, a bad or taken address, a character the
    /// game cannot let in.
    pub fn replace_player(
        &mut self,
        name: &str,
        player: &str,
        email: &str,
        character: Option<&str>,
        now: i64,
    ) -> anyhow::Result<PlayerSecret> {
        let stored = self.campaign(name)?;
        let record = seat(&stored, player)?;
        let email = Email::try_from(email.to_string()).map_err(anyhow::Error::msg)?;
        // The setup by mail keeps the character it recorded for the seat.
        if let Some(new) = character
            && self.setup_by_mail_under_way(name)?
        {
            anyhow::bail!(
                "the setup by mail of {name} has begun and keeps the character it has for \
                 {player}, so the {new} would not play; hand the seat over without --character \
                 now, and once the game has begun `gm replace` with --character brings the {new} \
                 in at the Inn"
            );
        }
        // Everything is checked before anything is stored.
        let ruling = match character {
            Some(new) => self.character_change(&stored, &record, new)?,
            None => None,
        };
        let ruling_day = match &ruling {
            Some(ruling) => Some(self.gm().check_ruling(&stored, ruling)?),
            None => None,
        };
        if let (None, Some(new)) = (&ruling, character) {
            // His character has not entered yet: the new one enters instead.
            let others = StoredCampaign {
                players: stored
                    .players
                    .iter()
                    .filter(|p| p.name != record.name)
                    .cloned()
                    .collect(),
                ..stored.clone()
            };
            self.check_new_seat(
                &others,
                &Seat {
                    player: record.name.clone(),
                    role: Some(new.to_string()),
                },
            )?;
        }
        let made = self
            .store
            .players_mut()
            .replace(name, &record.name, &email)?;
        if let Some(new) = character {
            self.store
                .players_mut()
                .set_character(name, &record.name, new)?;
        }
        if let (Some(ruling), Some(day)) = (&ruling, ruling_day) {
            self.store.rulings_mut().record(name, day, ruling, now)?;
        }
        let farewell = format!(
            "{} seat handed over ===\n\nThe GM has given your seat ({}) in the campaign {name} to \
             another player; your secret no longer works. Thank you for playing.\n",
            marker(name),
            record.name
        );
        self.outbox().queue(
            &stored.campaign,
            &record.email,
            "your seat",
            &farewell,
            None,
            now,
        )?;
        let playing = match character {
            Some(new) => format!(
                "\n\nYou play the {new}, who enters the Realm at the Inn as the next day begins."
            ),
            None => String::new(),
        };
        self.welcome(
            &stored,
            &made,
            &format!("you take over the seat of {} in", made.player),
            &playing,
            now,
        )?;
        let note = format!(
            "the seat of {} now belongs to {}{}",
            made.player,
            made.email,
            character
                .map(|c| format!(", playing the {c}"))
                .unwrap_or_default()
        );
        self.store
            .control_mut()
            .log_gm(Some(name), now, "gm", &note, None)?;
        Ok(made)
    }

    /// A player leaves: he gets no more mail; his character leaves the
    /// Realm as the next day begins (what he carried stays in his
    /// clearing), or with `character_stays` is played by the campaign's
    /// policy for missing orders. He is told; the others read of a
    /// character leaving in their next report.
    ///
    /// # Errors
    /// No such campaign or player.
    pub fn remove_player(
        &mut self,
        name: &str,
        player: &str,
        character_stays: bool,
        now: i64,
    ) -> anyhow::Result<String> {
        let stored = self.campaign(name)?;
        let record = seat(&stored, player)?;
        self.store
            .players_mut()
            .remove(name, &record.name, character_stays, now)?;
        let fate = if character_stays {
            "Your character stays in the game, played as when orders are missing."
        } else {
            "Your character leaves the Realm as the next day begins."
        };
        let body = format!(
            "{} farewell ===\n\nThe GM has taken you out of the campaign {name}; you will get no \
             more mail from it. {fate} Thank you for playing.\n",
            marker(name)
        );
        self.outbox().queue(
            &stored.campaign,
            &record.email,
            "farewell",
            &body,
            None,
            now,
        )?;
        let note = format!(
            "{} left the campaign; {}",
            record.name,
            if character_stays {
                "the character stays, played by the policy for missing orders"
            } else {
                "the character leaves the Realm as the next day begins"
            }
        );
        self.store
            .control_mut()
            .log_gm(Some(name), now, "gm", &note, None)?;
        Ok(note)
    }

    /// Whether `player` has joined a running game and still has to choose
    /// his character.
    ///
    /// # Errors
    /// The store fails or the game is unknown.
    pub(crate) fn choosing_character(
        &self,
        stored: &StoredCampaign,
        player: &PlayerRecord,
    ) -> anyhow::Result<bool> {
        Ok(player.character.is_none()
            && self.store.days().latest(&stored.campaign.name)?.is_some()
            && self.game(&stored.campaign)?.seats().is_some())
    }

    /// A late player's mail while he has no character: its `Character:`
    /// line chooses one (checked at once); the rest of the mail, if any, is
    /// read as his orders for the day he enters.
    ///
    /// # Errors
    /// The store fails or the game is unknown.
    pub(crate) fn choose_character(
        &mut self,
        stored: &StoredCampaign,
        player: &PlayerRecord,
        letter: &Letter,
        now: i64,
    ) -> anyhow::Result<String> {
        let name = stored.campaign.name.clone();
        let (chosen, rest) = character_line(&letter.text);
        let outcome = match chosen {
            None => Err(format!(
                "You have not chosen your character yet. {}",
                self.choose_a_character_hint(stored)?
            )),
            Some(wanted) => {
                let seat = Seat {
                    player: player.name.clone(),
                    role: Some(wanted.clone()),
                };
                match self.check_new_seat(stored, &seat) {
                    Ok(()) => Ok(wanted),
                    Err(error) => Err(format!("{error:#}.")),
                }
            }
        };
        let (body, note) = match outcome {
            Err(problem) => (
                format!("{} character ===\n\n{problem}\n", marker(&name)),
                format!("{} has not chosen a character yet", player.name),
            ),
            Ok(wanted) => {
                let unplayed = self.unplayed_now(stored)?;
                let character = crate::suggest::find(&wanted, unplayed.iter().map(String::as_str))
                    .map_or(wanted.clone(), str::to_string);
                self.store
                    .players_mut()
                    .set_character(&name, &player.name, &character)?;
                let day = self.pending(&stored.campaign)?.day;
                let mut body = format!(
                    "{} character ===\n\nYou play the {character}, who enters the Realm at the Inn \
                     as day {day} begins.",
                    marker(&name)
                );
                let stored = self.campaign(&name)?;
                if !rest.trim().is_empty() {
                    let confirmation = self.orders().submit_orders(
                        &stored,
                        &Submission::by_mail(&player.name, letter, &rest),
                        now,
                    )?;
                    body.push_str("\n\n");
                    body.push_str(&confirmation.text);
                } else {
                    body.push_str(&format!(" Send your orders for day {day} now."));
                }
                if let Some(request) = self.starting_info_owed(&stored, &player.name)? {
                    body.push_str(&format!("\n\n{request}"));
                }
                body.push('\n');
                (body, format!("{} chose the {character}", player.name))
            }
        };
        self.outbox().queue(
            &stored.campaign,
            &player.email,
            "Re: your character",
            &body,
            letter.answering(),
            now,
        )?;
        self.store
            .control_mut()
            .log_gm(Some(&name), now, "player", &note, letter.inbound_id)?;
        Ok(note)
    }

    /// What `player` still owes before his character enters the Realm (his
    /// starting info, as the others gave theirs at setup), worded as the
    /// request to mail him; `None` when nothing.
    ///
    /// # Errors
    /// The store fails, or the turn to come cannot begin.
    pub(crate) fn starting_info_owed(
        &mut self,
        stored: &StoredCampaign,
        player: &str,
    ) -> anyhow::Result<Option<String>> {
        let Some((_, state)) = self.gm().turn_to_come(stored)? else {
            return Ok(None);
        };
        Ok(self
            .game(&stored.campaign)?
            .seats()
            .and_then(|late| late.late_starting_info_request(&state, player)))
    }

    /// The starting info `player`'s mail gives, when he owes it: the
    /// ruling it makes, or the problem. A turn that cannot begin (a
    /// standing ruling the GM must fix) asks nothing: the mail is read as
    /// orders then, and their answer says what is wrong.
    pub(crate) fn starting_info_in(
        &mut self,
        stored: &StoredCampaign,
        player: &PlayerRecord,
        letter: &Letter,
    ) -> Option<Result<String, StartingInfoRefused>> {
        let (_, state) = self.gm().turn_to_come(stored).ok().flatten()?;
        self.game(&stored.campaign)
            .ok()?
            .seats()?
            .late_starting_info(&state, &player.name, &letter.text)
    }

    /// A late player's starting info by mail: recorded as a ruling of the
    /// turn his character enters (so it is carried out as he enters), with
    /// a copy to the GM (it is secret from the other players). Returns a
    /// note for the log.
    ///
    /// # Errors
    /// The store fails.
    pub(crate) fn late_starting_info(
        &mut self,
        stored: &StoredCampaign,
        player: &PlayerRecord,
        read: Result<String, StartingInfoRefused>,
        letter: &Letter,
        now: i64,
    ) -> anyhow::Result<String> {
        let campaign = &stored.campaign;
        let pending = self.pending(campaign)?;
        let head = format!("{} starting info ===\n\n", marker(&campaign.name));
        let (body, note) = match read {
            Ok(text) => {
                let ruling = GmRuling {
                    text,
                    why: format!("the starting info {} sent by mail", player.name),
                };
                let recorded = self.gm().rule(&campaign.name, &ruling, now)?;
                self.outbox().tell_gm(
                    campaign,
                    "setup",
                    &format!("starting info of {}", player.name),
                    &format!(
                        "Starting info of {}, who joined late, secret from the other players; \
                         recorded as a ruling:\n{recorded}",
                        player.name
                    ),
                    letter.inbound_id,
                    now,
                )?;
                (
                    format!(
                        "{head}Your starting info is recorded: it takes effect as day {} begins, \
                         when your character enters the Realm. Send your orders for day {} by \
                         {} in a mail of their own, if you have not yet. To change your starting \
                         info before then, write to your GM: he withdraws this ruling and you \
                         send it again.\n",
                        pending.day,
                        pending.day,
                        format_utc(pending.deadline)
                    ),
                    format!("starting info of {} recorded", player.name),
                )
            }
            Err(problem) => (
                format!(
                    "{head}Nothing was recorded:\n  - {problem}\n\nAnswer again with the \
                     corrected `Victory:` line (and `Spells:` line, if your character records \
                     spells) and your `Password:` line.\n"
                ),
                format!("starting info of {} not read", player.name),
            ),
        };
        self.outbox().queue(
            campaign,
            &player.email,
            "Re: starting info",
            &body,
            letter.answering(),
            now,
        )?;
        self.store.control_mut().log_gm(
            Some(&campaign.name),
            now,
            "player",
            &note,
            letter.inbound_id,
        )?;
        Ok(note)
    }

    /// How a late player chooses, and what he may choose from.
    fn choose_a_character_hint(&self, stored: &StoredCampaign) -> anyhow::Result<String> {
        let unplayed = self.unplayed_now(stored)?;
        // Before the game is set up nobody plays anyone yet.
        let free = if unplayed.is_empty() {
            "Choose one the other players have not chosen.".to_string()
        } else {
            format!("Nobody plays: {}.", unplayed.join(", "))
        };
        Ok(format!(
            "Choose your character: answer with a line `Character: NAME` (and your `Password:` \
             line); your orders may follow in the same mail. {free}"
        ))
    }

    /// The characters nobody plays or has chosen, as the campaign stands.
    fn unplayed_now(&self, stored: &StoredCampaign) -> anyhow::Result<Vec<String>> {
        let Some(latest) = self.store.days().latest(&stored.campaign.name)? else {
            return Ok(Vec::new());
        };
        let Some(late) = self.game(&stored.campaign)?.seats() else {
            return Ok(Vec::new());
        };
        let admitted = late.admit(&latest.state, &stored.campaign.rules, &stored.seats())?;
        Ok(late.unplayed(&admitted))
    }

    /// The ruling that makes `record`'s seat play `new` from the next turn,
    /// or none when his character has not entered the game yet (the seat's
    /// choice alone decides then).
    fn character_change(
        &self,
        stored: &StoredCampaign,
        record: &PlayerRecord,
        new: &str,
    ) -> anyhow::Result<Option<GmRuling>> {
        let game = self.game(&stored.campaign)?;
        let Some(latest) = self.store.days().latest(&stored.campaign.name)? else {
            return Ok(None);
        };
        Ok(game
            .seats()
            .and_then(|late| late.role_of(&latest.state, &record.name))
            .map(|old| GmRuling {
                text: format!("replace {old} with {new}"),
                why: "the seat has passed to a new player".to_string(),
            }))
    }

    /// Mail a newcomer his secret.
    fn welcome(
        &mut self,
        stored: &StoredCampaign,
        made: &PlayerSecret,
        how: &str,
        more: &str,
        now: i64,
    ) -> anyhow::Result<()> {
        let name = &stored.campaign.name;
        let more = if more.is_empty() {
            String::new()
        } else {
            format!("\n\n{}", more.trim_start())
        };
        let body = format!(
            "{} welcome ===\n\nThe GM says {how} the campaign {name}.\n\nYour secret is: {}\n\n\
             Put a line `Password: {}` in every mail you send to the game, with the campaign tag \
             [{name}] in the subject. Send `help` for the commands.{more}\n",
            marker(name),
            made.secret,
            made.secret
        );
        self.outbox()
            .queue(&stored.campaign, &made.email, "welcome", &body, None, now)?;
        Ok(())
    }
}

/// The value of the mail's `Character:` line, and the mail with that line
/// blanked (so the lines of the orders keep their numbers).
fn character_line(text: &str) -> (Option<String>, String) {
    let mut chosen = None;
    let mut rest = Vec::new();
    for line in text.lines() {
        match line.split_once(':') {
            Some((key, value))
                if chosen.is_none() && key.trim().eq_ignore_ascii_case("character") =>
            {
                chosen = Some(value.trim().trim_end_matches('.').to_string());
                rest.push("");
            }
            _ => rest.push(line),
        }
    }
    (chosen.filter(|c| !c.is_empty()), rest.join("\n"))
}

#[cfg(test)]
mod tests {
    use crate::daemon::testing::{NOW, demo};

    #[test]
    fn a_player_joins_with_a_character_and_another_leaves() {
        let mut daemon = demo();
        let taken =
            daemon
                .seats()
                .add_player("DEMO", "Dan", "dan@demo.realmgm.test", Some("Wizard"), NOW);
        assert!(taken.is_err(), "Cat plays the Wizard");
        daemon
            .seats()
            .add_player("DEMO", "Dan", "dan@demo.realmgm.test", Some("Dwarf"), NOW)
            .unwrap();
        daemon
            .seats()
            .remove_player("DEMO", "Cat", false, NOW)
            .unwrap();
        let players = daemon.campaign("DEMO").unwrap().players;
        let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["Ann", "Ben", "Dan"]);
    }
}
