//! Setup by mail ([`by_mail::SetupByMail`]) as the plumbing drives it
//! through the game interface ([`realmgm_core::game::MailSetup`]): the
//! setup begun or read back, and every word of the mails each stage asks
//! for, so the daemon only stores, addresses and sends them.

use realmgm_core::game::{MailSetup, SetupAnswer, SetupCall, SetupTable};

use super::SetupError;
use super::by_mail::{self, Stage};
use crate::data::GameData;
use crate::state::VICTORY_POINTS_PER_MONTH;

/// Why a setup by mail cannot begin or go on.
#[derive(Debug, thiserror::Error)]
pub enum BeginError {
    #[error("the stored setup by mail cannot be read as Magic Realm's: {0}")]
    Progress(#[from] serde_json::Error),
    #[error(transparent)]
    Seats(#[from] SetupError),
    #[error(
        "the players are seated for {seats} characters and the game has {characters}; seat \
         fewer in the campaign file (fewer players or more_characters)"
    )]
    TooManySeats { seats: usize, characters: usize },
}

/// A Magic Realm setup by mail in progress, with the game data it is
/// checked against.
pub struct MailedSetup {
    /// What the players chose so far, which the game sets the new game up from.
    pub record: by_mail::SetupByMail,
    data: &'static GameData,
}

impl MailedSetup {
    /// The setup read back from its stored `progress`, with the tiles
    /// dealt that an older realmgm left undealt; or, without progress, a
    /// new one that seats the players in seat order, each character the
    /// campaign file gives a player being his choice. A player with
    /// several seats chooses a character for each (Multiple Characters,
    /// 3.1 10.E.4).
    ///
    /// # Errors
    /// The stored progress is not a Magic Realm setup, or a player has
    /// several seats and the multiple_characters rule is off.
    pub fn begin(
        progress: Option<serde_json::Value>,
        table: &SetupTable<'_>,
        data: &'static GameData,
    ) -> Result<Self, BeginError> {
        let record = match progress {
            Some(json) => {
                let mut record: by_mail::SetupByMail = serde_json::from_value(json)?;
                record.deal_if_undealt(data, table.seed);
                record
            }
            None => {
                if table.seats.len() > data.characters.len() {
                    return Err(BeginError::TooManySeats {
                        seats: table.seats.len(),
                        characters: data.characters.len(),
                    });
                }
                let mut players: Vec<String> = Vec::new();
                for seat in table.seats {
                    if !players.contains(&seat.player) {
                        players.push(seat.player.clone());
                    }
                }
                let mut record = by_mail::SetupByMail::new(
                    players.clone(),
                    table.rules,
                    data,
                    table.seed,
                    table.victory_points.unwrap_or(VICTORY_POINTS_PER_MONTH),
                );
                for player in &players {
                    let roles: Vec<&Option<String>> = table
                        .seats
                        .iter()
                        .filter(|s| s.player == *player)
                        .map(|s| &s.role)
                        .collect();
                    if roles.len() > 1 {
                        // Refused now rather than once every choice is in.
                        if !table.rules.is_on(crate::rules::MULTIPLE_CHARACTERS) {
                            return Err(SetupError::SeveralCharacters {
                                player: player.clone(),
                            }
                            .into());
                        }
                        record.several.insert(player.clone(), roles.len());
                    }
                    for (seat, role) in record.seats_of(player).into_iter().zip(roles) {
                        if let Some(character) = role {
                            record.characters.insert(seat, character.clone());
                        }
                    }
                }
                // A carry-over that does not read is refused as the game
                // starts; until then the players see 1st stage's points.
                if table.rules.is_on(crate::development::EXTENDED_DEVELOPMENT) {
                    record.stages = Some(
                        crate::development::carried(table.carry_over)
                            .unwrap_or_default()
                            .into_iter()
                            .map(|(character, c)| (character, c.stage))
                            .collect(),
                    );
                }
                record
            }
        };
        Ok(MailedSetup { record, data })
    }
}

impl MailSetup for MailedSetup {
    /// Starting info is secret from the other players, so the GM gets a
    /// copy of it. It is asked of everyone at once: an answer that leaves
    /// others to answer is no new stage to announce.
    fn submit(&mut self, player: &str, text: &str) -> SetupAnswer {
        let record = &mut self.record;
        let before = record.stage();
        let outcome = record.submit(player, text, self.data);
        let info_recorded = matches!(before, Stage::StartingInfo(_)) && outcome.is_ok();
        let copies: Vec<String> = record
            .order
            .iter()
            .find(|p| p.eq_ignore_ascii_case(player))
            .map(|p| record.seats_of(p))
            .unwrap_or_default()
            .iter()
            .filter(|_| info_recorded)
            .filter_map(|seat| {
                let info = record.info.get(seat)?;
                let character = record.characters.get(seat).cloned().unwrap_or_default();
                let victory = if record.no_requirements {
                    "none (Extended Development without requirements, 3.1 10.E.6.10)".to_string()
                } else {
                    format!(
                        "GT {}, SP {}, F {}, N {}, G {}",
                        info.victory.great_treasures,
                        info.victory.spells,
                        info.victory.fame,
                        info.victory.notoriety,
                        info.victory.gold
                    )
                };
                Some(
                    format!(
                        "Starting info of {player} (the {character}), secret from the other \
                         players:\nVictory: {victory}\nStart: {}\nSpells: {}\nEnchanted: {}",
                        if record.from_the_edge {
                            "the map's edge (solitaire)"
                        } else {
                            info.start.label()
                        },
                        none_if_empty(&info.spells),
                        none_if_empty(&info.enchanted)
                    ) + &record.extra_choices(seat),
                )
            })
            .collect();
        let gm_copy = (!copies.is_empty()).then(|| copies.join("\n\n"));
        let next_stage = match (&before, record.stage()) {
            (Stage::StartingInfo(_), Stage::StartingInfo(_)) => false,
            (before, after) => *before != after,
        };
        SetupAnswer {
            outcome,
            gm_copy,
            next_stage,
        }
    }

    fn status(&self) -> String {
        let record = &self.record;
        match record.stage() {
            Stage::Choosing(next) => format!(
                "Setup by mail: {next} chooses a character next ({} of {} chosen)",
                record.characters.len(),
                record
                    .order
                    .iter()
                    .map(|p| record.seats_of(p).len())
                    .sum::<usize>()
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
        }
    }

    fn waiting(&self) -> Option<String> {
        match self.record.stage() {
            Stage::Choosing(next) => {
                Some(format!("setup by mail: {next} chooses a character next"))
            }
            Stage::Placing(next) => Some(format!(
                "setup by mail: {next} places the next tile ({} of 20 placed)",
                self.record.placements.len()
            )),
            Stage::PlacingVisitors(next) => Some(format!(
                "setup by mail: {next} places the next visitor or mission chit"
            )),
            Stage::StartingInfo(waiting) => Some(format!(
                "setup by mail: waiting for the starting info of {}",
                waiting.join(", ")
            )),
            Stage::Complete => None,
        }
    }

    fn calls(&self) -> Vec<SetupCall> {
        let (record, data) = (&self.record, self.data);
        let call = |to: &str, subject: &str, body: String| SetupCall {
            to: Some(to.to_string()),
            subject: subject.to_string(),
            body,
        };
        match record.stage() {
            Stage::Choosing(next) => {
                let equipment = if record.build_board {
                    "You have no tile left, so you pick your character now, and with him the \
                     native group whose stock supplies his starting weapon and armour. Answer \
                     with the lines `Character: <name>` and `Equipment: <native group>`"
                } else {
                    "It is your turn to choose a character. Answer with a line `Character: \
                     <name>`"
                };
                let seats = record.seats_of(&next).len();
                let which = if seats > 1 {
                    format!(
                        "\nYou play {seats} characters and choose one a turn (3.1 10.E.4.2); \
                         this is character {} of your {seats}.",
                        record.characters_of(&next).len() + 1
                    )
                } else {
                    String::new()
                };
                let body = format!(
                    "{equipment} (and your `Password:` line).{which}\nTaken so far: {}\n",
                    none_if_empty(&record.characters.values().cloned().collect::<Vec<_>>())
                );
                vec![call(&next, "your turn to choose", body)]
            }
            Stage::Placing(next) => {
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
                    "It is your turn to place a tile. Answer with a line `Place: <tile> at \
                     <q>,<r> rotation <0-5>` (the Borderland goes first, at 0,0).\nPlaced so far: \
                     {}\nYour tiles: {}\nTiles left: {}{hint}\n",
                    none_if_empty(&placed),
                    none_if_empty(&record.hands.get(&next).cloned().unwrap_or_default()),
                    record.tiles_left(data).join(", ")
                );
                vec![call(&next, "your turn to place a tile", body)]
            }
            Stage::PlacingVisitors(next) => {
                let chits: Vec<String> = record
                    .chits_left(data)
                    .iter()
                    .map(|(a, b)| format!("{a}/{b}"))
                    .collect();
                let body = format!(
                    "It is your turn to place a visitor or mission chit in a row-6 box, face up \
                     on the side you name. Answer with a line `Visitor: <chit> in <box>`.\nChits \
                     left: {}\nEmpty boxes: {}\n",
                    chits.join(", "),
                    record.boxes_left(data).join(", ")
                );
                vec![call(&next, "your turn to place a chit", body)]
            }
            Stage::StartingInfo(waiting) => waiting
                .iter()
                .map(|player| {
                    let several = if record.seats_of(player).len() > 1 {
                        " (each of your characters' lines below the line `Orders for: \
                         <character>` naming that character, as your orders will be; 3.1 \
                         10.E.4.4)"
                    } else {
                        ""
                    };
                    let body = format!(
                        "Every character is chosen. Send the GM your starting info, one line \
                         each, and your `Password:` line{several}:\n{}",
                        record.info_asked(player, data)
                    );
                    call(player, "starting info", body)
                })
                .collect(),
            Stage::Complete => vec![SetupCall {
                to: None,
                subject: "setup complete".to_string(),
                body: "Every player has chosen and sent the starting info; the game starts at \
                       the daemon's next look."
                    .to_string(),
            }],
        }
    }

    fn choices_of(&self, player: &str) -> Vec<String> {
        self.record.characters_of(player)
    }

    fn progress(&self) -> serde_json::Result<serde_json::Value> {
        serde_json::to_value(&self.record)
    }
}

fn none_if_empty(items: &[String]) -> String {
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use realmgm_core::game::{Rules, Seat};

    use super::*;

    fn seat(player: &str, role: Option<&str>) -> Seat {
        Seat {
            player: player.into(),
            role: role.map(Into::into),
        }
    }

    fn begin(seats: &[Seat], rules: &Rules) -> Result<MailedSetup, BeginError> {
        let table = SetupTable {
            seats,
            rules,
            seed: 1,
            victory_points: None,
            carry_over: None,
        };
        MailedSetup::begin(None, &table, crate::data::get().unwrap())
    }

    /// A player seated twice chooses for both seats, the character the
    /// campaign file names kept as his first; without Multiple Characters
    /// (3.1 10.E.4) the setup does not begin.
    #[test]
    fn a_player_seated_twice_chooses_for_each_seat_under_multiple_characters_3_1_10_e_4() {
        let seats = [
            seat("Ann", Some("Amazon")),
            seat("Ann", None),
            seat("Ben", None),
        ];
        let refused = begin(&seats, &Rules::default()).err().unwrap().to_string();
        assert!(
            refused.contains("only the multiple_characters rule"),
            "{refused}"
        );
        let rules = Rules::new([crate::rules::MULTIPLE_CHARACTERS], crate::rules::TOGGLES).unwrap();
        let mut setup = begin(&seats, &rules).unwrap();
        assert_eq!(setup.record.order, ["Ann", "Ben"]);
        assert_eq!(setup.choices_of("Ann"), ["Amazon"]);
        // Ben has none yet, so the round goes to him before Ann's second.
        assert_eq!(setup.record.stage(), Stage::Choosing("Ben".into()));
        assert!(
            setup.status().ends_with("(1 of 3 chosen)"),
            "{}",
            setup.status()
        );
        setup.submit("Ben", "Character: Wizard");
        let call = &setup.calls()[0];
        assert_eq!(call.to.as_deref(), Some("Ann"));
        assert!(call.body.contains("character 2 of your 2"), "{}", call.body);
        setup.submit("Ann", "Character: Berserker");
        assert_eq!(setup.choices_of("Ann"), ["Amazon", "Berserker"]);
        let asked = &setup.calls()[0].body;
        assert!(asked.contains("`Orders for: <character>`"), "{asked}");
        let answer = setup.submit(
            "Ann",
            "Orders for: Amazon\nVictory: G 5\nStart: Inn\nOrders for: Berserker\nVictory: G \
             6\nStart: Inn",
        );
        assert!(answer.outcome.is_ok(), "{answer:?}");
        let copy = answer.gm_copy.unwrap();
        assert!(
            copy.contains("Starting info of Ann (the Amazon)")
                && copy.contains("Starting info of Ann (the Berserker)"),
            "{copy}"
        );
        let too_many: Vec<Seat> = (0..17).map(|_| seat("Ann", None)).collect();
        let refused = begin(&too_many, &rules).err().unwrap().to_string();
        assert!(refused.contains("seated for 17 characters"), "{refused}");
    }
}
