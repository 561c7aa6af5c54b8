//! Setup by mail (BIMR3's setup, seed 003 "BOARD BUILDING",
//! "SELECTING CHARACTERS", "STARTING INFO AND SCORING").
//!
//! Without a player-built board the players choose characters one at a
//! time in seat order. With one (`player_built_board`) the campaign's seed
//! deals the twenty tiles among the players, and the holder of the
//! Borderland places it first; then the turn goes round the table. On his
//! turn a player places one of his tiles, each placement checked by the
//! map rules ([`crate::board::layout`]); a player whose turn
//! comes with no tile left picks a character from those still free and at
//! the same time names the native group whose stock supplies his starting
//! weapon and armour. When the map is done and everyone has a character,
//! the players place the row-6 visitor, mission and campaign chits in turn.
//! Last, each sends the GM his secret victory requirements (none under
//! Extended Development without them, 3.1 10.E.6.10), his starting
//! location, the spells he records and the MAGIC chits he starts enchanted.
//!
//! Under Multiple Characters (3.1 10.E.4) a player the campaign seats for
//! several characters chooses them one a turn (10.E.4.2): without a
//! player-built board the turns go round the table until every seat has
//! its character; with one, each of his turns without a tile picks one.
//! His starting info mail gives each character's lines under an `Orders
//! for: NAME` line ([`super::sections`]), and each further character
//! records one victory point more than the one he chose before (10.E.4.3).
//!
//! A pure state machine: [`SetupByMail::stage`] says whom it waits for,
//! [`SetupByMail::submit`] takes one player's mail text and answers with
//! what was recorded or every problem; the daemon stores it as JSON and,
//! once complete, starts the game with the chosen characters and starts
//! ([`SetupByMail::starts`]).
//!
//! Mail lines: `Character: Amazon` and, on a player-built board,
//! `Equipment: Soldiers`; `Place: AV at 1,-1 rotation 2` (the Borderland
//! first, at 0,0); `Visitor: Scholar in <box>` (either side of a chit, face
//! up); `Victory: GT 1, SP 0, F 2, N 1, G 1` (great treasures, usable
//! spells, fame, notoriety, gold; the points add up to the campaign's
//! [`SetupByMail::victory_points`]); `Start: Inn`; `Spells: Fiery Blast;
//! Peace` (exactly as many learnable spells as the character records);
//! `Enchanted: MAGIC III2*` (his own MAGIC chits; none by default);
//! `Orders for: Berserker` before each character's starting info from a
//! player of several.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::SetupError;
use super::sections::{self, HEADER};
use crate::abilities::{CHOSEN_OPTIONAL_ABILITIES, OPTIONAL_ABILITIES};
use crate::board::layout::FIRST_TILE;
use crate::board::{Board, Hex, Placement};
use crate::data::GameData;
use crate::data::characters::{Character, ChitAction, ElfForm, StartLocation};
use crate::data::tiles::TILE_COUNT;
use crate::state::VictoryRequirements;
use realmgm_core::dice::Dice;
use realmgm_core::game::{Rules, SetupRefused};
use realmgm_core::suggest;

fn standard_victory_points() -> u32 {
    crate::state::VICTORY_POINTS_PER_MONTH
}

fn one_point() -> u8 {
    1
}

fn is_one_point(points: &u8) -> bool {
    *points == 1
}

/// One player's starting info.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartingInfo {
    pub victory: VictoryRequirements,
    pub start: StartLocation,
    pub spells: Vec<String>,
    pub enchanted: Vec<String>,
    /// The optional abilities he takes (`chosen_optional_abilities`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<String>,
    /// The Elf's form, when he chooses one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<ElfForm>,
    /// The level he starts at, under the development rule (3.1 10.E.5.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
}

/// The setup so far.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupByMail {
    /// The players in choosing order (seat order).
    pub order: Vec<String>,
    /// Seat → character chosen. A player's seat is his name; a player of
    /// several characters has one for each ([`SetupByMail::seats_of`]).
    pub characters: BTreeMap<String, String>,
    /// Seat → starting info sent.
    pub info: BTreeMap<String, StartingInfo>,
    /// Player → how many characters he plays, when more than one
    /// (Multiple Characters, 3.1 10.E.4).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub several: BTreeMap<String, usize>,
    /// The players build the board (the `player_built_board` rule).
    #[serde(default)]
    pub build_board: bool,
    /// The tiles placed so far, in order.
    #[serde(default)]
    pub placements: Vec<Placement>,
    /// Row-6 box → the chit side put there face up, when the players build
    /// the board.
    #[serde(default)]
    pub visitors: BTreeMap<String, String>,
    /// How many row-6 chits the players place (0: the dice place them).
    #[serde(default)]
    pub visitor_chits: usize,
    /// Player → the tiles dealt to him and not placed yet, when the
    /// players build the board.
    #[serde(default)]
    pub hands: BTreeMap<String, Vec<String>>,
    /// The seat whose turn it is while the board is built.
    #[serde(default)]
    pub turn: usize,
    /// Players none of whose tiles has a legal place on the map as it
    /// stands: their turns pass until the map grows (worked out after each
    /// placement).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub no_place: Vec<String>,
    /// Seat → the native group whose stock supplies its character's
    /// starting weapon and armour (a player-built board, BIMR3).
    #[serde(default)]
    pub equipment: BTreeMap<String, String>,
    /// The victory points each player divides among the categories.
    #[serde(default = "standard_victory_points")]
    pub victory_points: u32,
    /// Each player names the optional abilities he takes
    /// (`chosen_optional_abilities`, BIMR5).
    #[serde(default)]
    pub choose_abilities: bool,
    /// The Elf's "Light or Great Elf" ability is in force (either
    /// optional-abilities rule): his player names his form.
    #[serde(default)]
    pub choose_form: bool,
    /// Each player names his character's starting level with his start
    /// (the development rule, 3.1 10.E.5.3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub choose_level: bool,
    /// Character → the stage the campaign carries for him, under Extended
    /// Development, whose victory points are the next stage's (3.1
    /// 10.E.6.2); a character not listed is at 1st stage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stages: Option<BTreeMap<String, u8>>,
    /// Under Extended Development, the victory points each stage asks: 1,
    /// or 2 or 3 in a longer game (3.1 10.E.6.2).
    #[serde(default = "one_point", skip_serializing_if = "is_one_point")]
    pub stage_points: u8,
    /// Extended Development without victory requirements: no `Victory:`
    /// line is asked or taken (3.1 10.E.6.10).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_requirements: bool,
    /// Under Solitaire Play the character enters from the map's edge (3.1
    /// 10.E.1.6), so no start is asked.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_the_edge: bool,
}

/// What the setup waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// This player chooses his character next.
    Choosing(String),
    /// This player places the next tile.
    Placing(String),
    /// This player puts the next visitor, mission or campaign chit in a box.
    PlacingVisitors(String),
    /// These players have not sent their starting info.
    StartingInfo(Vec<String>),
    /// Everything is in: the game can start.
    Complete,
}

impl SetupByMail {
    /// A setup for `players` choosing (and placing) in this order; under
    /// `player_built_board` they build the board and place the row-6 chits,
    /// with the tiles dealt by the campaign's `seed`; `victory_points` is
    /// what each player's requirements add up to.
    pub fn new(
        players: Vec<String>,
        rules: &Rules,
        data: &GameData,
        seed: u64,
        victory_points: u32,
    ) -> SetupByMail {
        let build_board = rules.is_on(super::PLAYER_BUILT_BOARD);
        let choose_abilities = rules.is_on(CHOSEN_OPTIONAL_ABILITIES);
        let mut setup = SetupByMail {
            build_board,
            victory_points,
            choose_abilities,
            choose_form: choose_abilities || rules.is_on(OPTIONAL_ABILITIES),
            choose_level: rules.is_on(crate::development::DEVELOPMENT)
                && !rules.is_on(crate::development::EXTENDED_DEVELOPMENT),
            from_the_edge: rules.is_on(super::SOLITAIRE),
            stage_points: crate::development::points_per_stage(rules),
            no_requirements: rules.is_on(crate::development::WITHOUT_REQUIREMENTS),
            ..SetupByMail::default()
        };
        if build_board && !players.is_empty() {
            setup.visitor_chits = super::visitor_chits(data).len();
        }
        setup.order = players;
        setup.deal_if_undealt(data, seed);
        setup
    }

    /// Deal the tiles not placed yet round the table by the campaign's seed
    /// (`setup/deal tiles`): at a new setup all twenty, the holder of the
    /// Borderland to place first; for a setup stored by an older realmgm,
    /// whose players placed in turn from the whole set, what is left, the
    /// turn going on from where it was.
    pub fn deal_if_undealt(&mut self, data: &GameData, seed: u64) {
        if !self.build_board
            || !self.hands.is_empty()
            || self.placements.len() >= TILE_COUNT
            || self.order.is_empty()
        {
            return;
        }
        let mut tiles = self.tiles_left(data);
        Dice::new(seed, 0).shuffle("setup/deal tiles", &mut tiles);
        let seats = self.order.len();
        for (index, tile) in tiles.into_iter().enumerate() {
            let holder = self.order[index % seats].clone();
            if tile == FIRST_TILE {
                self.turn = index % seats;
            }
            self.hands.entry(holder).or_default().push(tile);
        }
        if !self.placements.is_empty() {
            self.turn = self.placements.len() % seats;
        }
    }

    /// Who acts next while the board is built: from the seat whose turn it
    /// is, the first player who still holds a tile (he places one) or has
    /// no character (he chooses one); `None` once the map is done and
    /// everyone has chosen.
    fn builder(&self) -> Option<Stage> {
        let seats = self.order.len();
        let holds = |p: &String| self.hands.get(p).is_some_and(|h| !h.is_empty());
        let next = (0..seats).find_map(|step| {
            let player = &self.order[(self.turn + step) % seats];
            if holds(player) && !self.no_place.contains(player) {
                Some(Stage::Placing(player.clone()))
            } else if !holds(player) && self.unchosen(player).is_some() {
                Some(Stage::Choosing(player.clone()))
            } else {
                None
            }
        });
        // Tiles nobody can place now: the seat whose turn it is is asked
        // (and told why each place is refused) rather than the map left
        // unfinished; the GM can enter a placement for him.
        next.or_else(|| {
            (0..seats)
                .map(|step| &self.order[(self.turn + step) % seats])
                .find(|p| holds(p))
                .map(|p| Stage::Placing(p.clone()))
        })
    }

    /// Work out which players hold no tile with a legal place now.
    fn find_who_cannot_place(&mut self, data: &GameData) {
        let Ok(board) = Board::from_placements(&data.tiles, self.placements.iter().cloned()) else {
            return;
        };
        self.no_place = self
            .hands
            .iter()
            .filter(|(_, hand)| {
                !hand.is_empty()
                    && hand.iter().all(|code| {
                        data.tiles
                            .by_code(code)
                            .is_none_or(|t| board.legal_placements(t).is_empty())
                    })
            })
            .map(|(player, _)| player.clone())
            .collect();
    }

    /// The turn passes to the seat after `player`'s.
    fn pass_turn(&mut self, player: &str) {
        if let Some(seat) = self.order.iter().position(|p| p == player) {
            self.turn = (seat + 1) % self.order.len();
        }
    }

    /// The seats `player` chooses for: his name, or under Multiple
    /// Characters one for each of his characters, named as the game names
    /// them (`Ann/1`, `Ann/2`; 3.1 10.E.4).
    pub fn seats_of(&self, player: &str) -> Vec<String> {
        match self.several.get(player) {
            Some(&count) if count > 1 => (1..=count).map(|n| format!("{player}/{n}")).collect(),
            _ => vec![player.to_string()],
        }
    }

    /// The first of `player`'s seats still without a character.
    fn unchosen(&self, player: &str) -> Option<String> {
        self.seats_of(player)
            .into_iter()
            .find(|seat| !self.characters.contains_key(seat))
    }

    /// The characters `player` chose, his seats' order.
    pub fn characters_of(&self, player: &str) -> Vec<String> {
        self.seats_of(player)
            .iter()
            .filter_map(|seat| self.characters.get(seat).cloned())
            .collect()
    }

    /// Without a player-built board: the player who chooses next, one
    /// character a turn round the table, so a player of several takes his
    /// second only once every player has his first (3.1 10.E.4.2).
    fn next_chooser(&self) -> Option<&String> {
        self.order
            .iter()
            .filter(|p| self.unchosen(p).is_some())
            .min_by_key(|p| self.characters_of(p).len())
    }

    pub fn stage(&self) -> Stage {
        if self.build_board {
            if let Some(stage) = self.builder() {
                return stage;
            }
        } else if let Some(next) = self.next_chooser() {
            return Stage::Choosing(next.clone());
        }
        let placed = self.visitors.len();
        if placed < self.visitor_chits && !self.order.is_empty() {
            let next = &self.order[placed % self.order.len()];
            return Stage::PlacingVisitors(next.clone());
        }
        let missing: Vec<String> = self
            .order
            .iter()
            .filter(|p| self.seats_of(p).iter().any(|s| !self.info.contains_key(s)))
            .cloned()
            .collect();
        if missing.is_empty() {
            Stage::Complete
        } else {
            Stage::StartingInfo(missing)
        }
    }

    /// What the next stage asks, in one sentence for the answer to a mail.
    fn next_step(&self) -> String {
        match self.stage() {
            Stage::Choosing(next) => format!("{next} chooses a character next."),
            Stage::Placing(next) => format!("{next} places the next tile."),
            Stage::PlacingVisitors(next) => {
                format!("{next} places the next visitor or mission chit.")
            }
            Stage::StartingInfo(_) => "Everyone has chosen: send your starting info now.".into(),
            Stage::Complete => "The setup is complete.".into(),
        }
    }

    /// Take `player`'s mail. Returns what was recorded, or every problem.
    ///
    /// # Errors
    /// Not his turn, an unknown or taken character, or starting info that
    /// is incomplete or breaks a rule; each problem names what to write.
    pub fn submit(
        &mut self,
        player: &str,
        text: &str,
        data: &GameData,
    ) -> Result<String, SetupRefused> {
        let Some(player) = self.order.iter().find(|p| p.eq_ignore_ascii_case(player)) else {
            return Err(SetupRefused(vec![format!(
                "{player} does not take part in this setup"
            )]));
        };
        let player = player.clone();
        let lines = key_lines(text);
        match self.stage() {
            Stage::Choosing(next) if next == player => self.choose(&player, &lines, data),
            Stage::Choosing(next) => Err(SetupRefused(vec![format!(
                "it is {next}'s turn to choose a character; you will be mailed when it is yours"
            )])),
            Stage::Placing(next) if next == player => self.place(&player, &lines, data),
            Stage::Placing(next) => Err(SetupRefused(vec![format!(
                "it is {next}'s turn to place a tile; you will be mailed when it is yours"
            )])),
            Stage::PlacingVisitors(next) if next == player => self.place_visitor(&lines, data),
            Stage::PlacingVisitors(next) => Err(SetupRefused(vec![format!(
                "it is {next}'s turn to place a visitor or mission chit; you will be mailed when \
                 it is yours"
            )])),
            Stage::StartingInfo(_) if self.seats_of(&player).len() > 1 => {
                self.several_starting_info(&player, text, data)
            }
            Stage::StartingInfo(_) => self.starting_info(&player, 0, &lines, data),
            Stage::Complete => Err(SetupRefused(vec![
                "the setup is complete; send your orders for day 1".to_string(),
            ])),
        }
    }

    fn choose(
        &mut self,
        player: &str,
        lines: &BTreeMap<String, String>,
        data: &GameData,
    ) -> Result<String, SetupRefused> {
        let ask = if self.build_board {
            "you have no tile left, so it is your turn to choose a character: write \
             `Character: <name>` and `Equipment: <native group>`"
        } else {
            "it is your turn to choose a character: write `Character: <name>`"
        };
        let Some(wanted) = lines.get("character") else {
            return Err(SetupRefused(vec![ask.to_string()]));
        };
        let free: Vec<&str> = data
            .characters
            .iter()
            .map(|c| c.name.as_str())
            .filter(|name| !self.characters.values().any(|taken| taken == name))
            .collect();
        let Some(character) = suggest::find(wanted, free.iter().copied()) else {
            let taken = self
                .characters
                .values()
                .any(|t| t.eq_ignore_ascii_case(wanted));
            let why = if taken {
                "is already taken".to_string()
            } else {
                format!(
                    "is not a character{}",
                    suggest::did_you_mean(wanted, free.iter().copied())
                )
            };
            return Err(SetupRefused(vec![format!(
                "Character: '{wanted}' {why}; still free: {}",
                free.join(", ")
            )]));
        };
        let character = character.to_string();
        let seats = self.seats_of(player);
        let Some(seat) = self.unchosen(player) else {
            return Err(SetupRefused(vec![format!(
                "you have chosen all your characters; {}",
                self.next_step()
            )]));
        };
        let group = if self.build_board {
            let card = data.characters.iter().find(|c| c.name == character);
            let group = card
                .map(|card| read_equipment(card, lines.get("equipment"), data))
                .transpose()
                .map_err(|e| SetupRefused(vec![e.to_string()]))?
                .flatten();
            if let Some(group) = &group {
                self.equipment.insert(seat.clone(), group.clone());
            }
            self.pass_turn(player);
            group
        } else {
            None
        };
        self.characters.insert(seat.clone(), character.clone());
        let equipped = group.map_or(String::new(), |g| {
            format!(" (starting equipment from the {g})")
        });
        let which = match seats.iter().position(|s| *s == seat) {
            Some(index) if seats.len() > 1 => {
                format!(", character {} of your {}", index + 1, seats.len())
            }
            _ => String::new(),
        };
        Ok(format!(
            "You play the {character}{which}{equipped}. {}",
            self.next_step()
        ))
    }

    /// The starting info of a player of several characters: each part of
    /// his mail under its `Orders for:` line is one character's (3.1
    /// 10.E.4.4). He may send them in one mail or in several; a mail with
    /// any problem records nothing.
    fn several_starting_info(
        &mut self,
        player: &str,
        text: &str,
        data: &GameData,
    ) -> Result<String, SetupRefused> {
        let seats = self.seats_of(player);
        let mine: Vec<(usize, String, String)> = seats
            .iter()
            .enumerate()
            .filter_map(|(further, seat)| {
                Some((further, seat.clone(), self.characters.get(seat)?.clone()))
            })
            .collect();
        let headers: Vec<String> = mine
            .iter()
            .map(|(_, _, name)| format!("'{HEADER} {name}'"))
            .collect();
        let split = sections::split(text);
        if split.sections.is_empty() {
            return Err(SetupRefused(vec![format!(
                "you play several characters, so begin each one's starting info with the line \
                 naming that character ({}), the lines below it",
                realmgm_core::words::listed(&headers)
            )]));
        }
        let mut problems: Vec<String> = split
            .stray
            .iter()
            .map(|line| {
                format!(
                    "line {line} comes before the first '{HEADER}' line, so it is no \
                     character's; move it below the line of the character it is for"
                )
            })
            .collect();
        let assigned = split.assign(&mine, |(_, _, name)| name);
        problems.extend(assigned.unknown.iter().map(|section| {
            format!(
                "{HEADER} '{}' is not a character you play; you play {}",
                section.name,
                realmgm_core::words::listed(&headers)
            )
        }));
        problems.extend(assigned.again.iter().map(|((_, _, name), _)| {
            format!("a second part for the {name}; give each character one '{HEADER}' part")
        }));
        let mut after = self.clone();
        let mut recorded = Vec::new();
        for ((further, seat, name), section) in &assigned.parts {
            let further = u32::try_from(*further).unwrap_or(u32::MAX);
            match after.starting_info(seat, further, &key_lines(&section.text), data) {
                Ok(done) => recorded.push(done),
                Err(refused) => {
                    problems.extend(refused.0.into_iter().map(|p| format!("the {name}: {p}")));
                }
            }
        }
        if !problems.is_empty() {
            return Err(SetupRefused(problems));
        }
        *self = after;
        let still: Vec<String> = mine
            .iter()
            .filter(|(_, seat, _)| !self.info.contains_key(seat))
            .map(|(_, _, name)| format!("the {name}"))
            .collect();
        if !still.is_empty() {
            recorded.push(format!(
                "Still to send: the starting info of {}.",
                realmgm_core::words::listed(&still)
            ));
        }
        Ok(recorded.join(" "))
    }

    /// The starting info of the character at `seat`, his player's
    /// `further`th after his first, who records that many victory points
    /// more (3.1 10.E.4.3).
    fn starting_info(
        &mut self,
        seat: &str,
        further: u32,
        lines: &BTreeMap<String, String>,
        data: &GameData,
    ) -> Result<String, SetupRefused> {
        let chosen = self.characters.get(seat).cloned().unwrap_or_default();
        let Some(character) = data.characters.iter().find(|c| c.name == chosen) else {
            return Err(SetupRefused(vec![format!(
                "the character '{chosen}' is not in the game data"
            )]));
        };
        let mut problems = Vec::new();
        let level = if self.choose_level {
            match lines
                .get("level")
                .map(|l| crate::development::read_level(l))
            {
                Some(Ok(level)) => Some(level),
                Some(Err(e)) => {
                    problems.push(format!("Level: {e}"));
                    None
                }
                None => {
                    problems.push(
                        "Level: missing; the development rule is on, so write the level your \
                         character starts at, 1 to 4, e.g. `Level: 2` (4 is the character as \
                         his card shows him)"
                            .to_string(),
                    );
                    None
                }
            }
        } else {
            None
        };
        let points = match &self.stages {
            Some(stages) => {
                crate::development::next_stage_points(
                    stages.get(&character.name).copied().unwrap_or(1),
                    self.stage_points,
                ) + further
            }
            None => self.points_at(level, further),
        };
        let character = &level.map_or_else(
            || character.clone(),
            |l| crate::development::card_at_level(character, l),
        );
        let victory = match lines.get("victory") {
            None if self.no_requirements => Some(VictoryRequirements::default()),
            Some(_) if self.no_requirements => {
                problems.push(
                    "Victory: this campaign plays Extended Development without victory \
                     requirements (3.1 10.E.6.10), so none are recorded; leave the line out"
                        .to_string(),
                );
                None
            }
            Some(text) => read_victory(text, points)
                .map_err(|e| problems.push(e.to_string()))
                .ok(),
            None => {
                problems.push(format!(
                    "Victory: missing; write e.g. `Victory: GT 1, SP 0, F 2, N 1, G 1` \
                     ({points} points in all)"
                ));
                None
            }
        };
        let start = match (self.from_the_edge, character.start.first()) {
            // He enters from the map's edge; the start is never used.
            (true, Some(&first)) => Ok(first),
            _ => {
                read_start(character, lines.get("start")).map_err(|e| problems.push(e.to_string()))
            }
        };
        let spells =
            read_spells(character, lines.get("spells"), data).map_err(|e| problems.extend(e.0));
        let enchanted =
            read_enchanted(character, lines.get("enchanted")).map_err(|e| problems.extend(e.0));
        let abilities = if self.choose_abilities {
            read_abilities(character, lines.get("abilities"))
                .map_err(|e| problems.push(e.to_string()))
        } else {
            Ok(Vec::new())
        };
        let form = if self.choose_form && character.has_form_choice() {
            read_form(character, lines.get("form"))
                .map(Some)
                .map_err(|e| problems.push(e.to_string()))
        } else {
            Ok(None)
        };
        match (victory, start, spells, enchanted, abilities, form) {
            (Some(victory), Ok(start), Ok(spells), Ok(enchanted), Ok(abilities), Ok(form))
                if problems.is_empty() =>
            {
                let replaced = self.info.contains_key(seat);
                self.info.insert(
                    seat.to_string(),
                    StartingInfo {
                        victory,
                        start,
                        spells,
                        enchanted,
                        abilities,
                        form,
                        level,
                    },
                );
                let verb = if replaced { "replaced" } else { "recorded" };
                Ok(format!(
                    "Starting info of the {} {verb}; it stays secret until the game ends.",
                    character.name
                ))
            }
            _ => Err(SetupRefused(problems)),
        }
    }

    fn place(
        &mut self,
        player: &str,
        lines: &BTreeMap<String, String>,
        data: &GameData,
    ) -> Result<String, SetupRefused> {
        let hand = self.hands.get(player).cloned().unwrap_or_default();
        let Some(text) = lines.get("place") else {
            return Err(SetupRefused(vec![format!(
                "it is your turn to place a tile: write `Place: <tile> at <q>,<r> rotation \
                 <0-5>`; your tiles: {}",
                hand.join(", ")
            )]));
        };
        let placement = read_placement(text, data)?;
        let Some(index) = hand.iter().position(|t| *t == placement.tile) else {
            return Err(SetupRefused(vec![format!(
                "Place: {} was not dealt to you; your tiles: {}",
                placement.tile,
                hand.join(", ")
            )]));
        };
        let mut placements = self.placements.clone();
        placements.push(placement);
        let board = Board::from_placements(&data.tiles, placements.iter().cloned())
            .map_err(|e| SetupRefused(vec![format!("Place: {}", e.error)]))?;
        if placements.len() == TILE_COUNT {
            board.check_players_finished(&data.tiles).map_err(|e| {
                SetupRefused(vec![format!(
                    "Place: as the last tile this breaks the map: {e}; place it where it joins \
                     the map up"
                )])
            })?;
        }
        self.placements = placements;
        if let Some(hand) = self.hands.get_mut(player) {
            hand.remove(index);
        }
        self.find_who_cannot_place(data);
        self.pass_turn(player);
        let placed = self.placements.len();
        Ok(format!(
            "Tile {placed} of {TILE_COUNT} placed. {}",
            self.next_step()
        ))
    }

    fn place_visitor(
        &mut self,
        lines: &BTreeMap<String, String>,
        data: &GameData,
    ) -> Result<String, SetupRefused> {
        let form = "write `Visitor: <chit> in <box>`";
        let Some(text) = lines.get("visitor") else {
            return Err(SetupRefused(vec![format!(
                "it is your turn to place a visitor or mission chit: {form}"
            )]));
        };
        let lower = text.to_lowercase();
        let Some(at) = lower.rfind(" in ") else {
            return Err(SetupRefused(vec![format!(
                "Visitor: '{text}' names no box; {form}"
            )]));
        };
        let (chit, place) = (text[..at].trim(), text[at + 4..].trim());
        let boxes = self.boxes_left(data);
        let Some(place) = suggest::find(place, boxes.iter().map(String::as_str)) else {
            return Err(SetupRefused(vec![format!(
                "Visitor: '{place}' is not an empty row-6 box; the empty ones are {}",
                boxes.join(", ")
            )]));
        };
        let chits = self.chits_left(data);
        let sides = chits.iter().flat_map(|(a, b)| [a.as_str(), b.as_str()]);
        let Some(side) = suggest::find(chit, sides.clone()) else {
            return Err(SetupRefused(vec![format!(
                "Visitor: '{chit}' is not a chit left to place{}",
                suggest::did_you_mean(chit, sides)
            )]));
        };
        let (place, side) = (place.to_string(), side.to_string());
        self.visitors.insert(place.clone(), side.clone());
        Ok(format!(
            "{side} is in the box {place}. {}",
            self.next_step()
        ))
    }

    /// The row-6 boxes still empty.
    pub fn boxes_left(&self, data: &GameData) -> Vec<String> {
        data.setup_card
            .visitor_box
            .iter()
            .map(|b| b.name.clone())
            .filter(|name| !self.visitors.contains_key(name))
            .collect()
    }

    /// The row-6 chits (both sides) not placed yet.
    pub fn chits_left(&self, data: &GameData) -> Vec<(String, String)> {
        super::visitor_chits(data)
            .into_iter()
            .filter(|(a, b)| !self.visitors.values().any(|v| v == a || v == b))
            .collect()
    }

    /// The row-6 chits the players placed, when they place them.
    pub fn visitor_boxes(&self) -> Option<BTreeMap<String, String>> {
        (self.visitor_chits > 0).then(|| self.visitors.clone())
    }

    /// The tiles not placed yet, by code.
    pub fn tiles_left(&self, data: &GameData) -> Vec<String> {
        data.tiles
            .all()
            .iter()
            .filter(|t| !self.placements.iter().any(|p| p.tile == t.code))
            .map(|t| t.code.clone())
            .collect()
    }

    /// A legal placement of one of `player`'s tiles on the map so far, one
    /// that joins it up best, to show him in the mail asking for his tile.
    pub fn legal_example(&self, player: &str, data: &GameData) -> Option<Placement> {
        let hand = self.hands.get(player)?;
        if self.placements.is_empty() {
            return hand
                .iter()
                .find(|t| *t == FIRST_TILE)
                .map(|t| Placement::new(t, Hex::ORIGIN, 0));
        }
        let board = Board::from_placements(&data.tiles, self.placements.iter().cloned()).ok()?;
        hand.iter().find_map(|code| {
            let tile = data.tiles.by_code(code)?;
            crate::board::generate::joining_placements(&board, tile)
                .into_iter()
                .next()
        })
    }

    /// The board the players built, when they build it.
    pub fn board(&self) -> Option<Vec<Placement>> {
        self.build_board.then(|| self.placements.clone())
    }

    /// Character → chosen start, for the game's setup.
    pub fn starts(&self) -> BTreeMap<String, StartLocation> {
        self.info
            .iter()
            .filter_map(|(player, info)| {
                self.characters
                    .get(player)
                    .map(|character| (character.clone(), info.start))
            })
            .collect()
    }

    /// Each character's part of the players' starting info, by character.
    fn by_character<T>(&self, part: impl Fn(&StartingInfo) -> T) -> BTreeMap<String, T> {
        self.info
            .iter()
            .filter_map(|(player, info)| {
                self.characters
                    .get(player)
                    .map(|character| (character.clone(), part(info)))
            })
            .collect()
    }

    /// The secret victory requirements, by character.
    /// None without victory requirements (3.1 10.E.6.10).
    pub fn victory_requirements(&self) -> BTreeMap<String, VictoryRequirements> {
        if self.no_requirements {
            return BTreeMap::new();
        }
        self.by_character(|info| info.victory)
    }

    /// The spells each character records, by character.
    pub fn spells(&self) -> BTreeMap<String, Vec<String>> {
        self.by_character(|info| info.spells.clone())
    }

    /// The native group supplying each character's starting equipment, by
    /// character.
    pub fn equipment_groups(&self) -> BTreeMap<String, String> {
        self.equipment
            .iter()
            .filter_map(|(player, group)| {
                Some((self.characters.get(player)?.clone(), group.clone()))
            })
            .collect()
    }

    /// The victory points a character starting at `level` records (3.1
    /// 10.E.5.3), his player's `further`th character after his first
    /// recording that many more (10.E.4.3); the campaign's points without
    /// either.
    fn points_at(&self, level: Option<u8>, further: u32) -> u32 {
        let points = self.victory_points + further;
        level.map_or(points, |l| crate::development::victory_points(points, l))
    }

    /// The level each character starts at, under the development rule.
    pub fn levels(&self) -> BTreeMap<String, u8> {
        self.by_character(|info| info.level)
            .into_iter()
            .filter_map(|(character, level)| Some((character, level?)))
            .collect()
    }

    /// The starting info `player`'s character asks for, one line each:
    /// his victory requirements, the starts his card allows, the spells and
    /// MAGIC chits he has (none asked of a character without), his optional
    /// abilities and the Elf's form. A player of several characters is
    /// asked each one's under its `Orders for:` line (3.1 10.E.4.4).
    pub fn info_asked(&self, player: &str, data: &GameData) -> String {
        let seats = self.seats_of(player);
        if let [seat] = seats.as_slice() {
            return self.info_asked_of(seat, 0, data);
        }
        seats
            .iter()
            .zip(0..)
            .filter_map(|(seat, further)| {
                let name = self.characters.get(seat)?;
                Some(format!(
                    "{HEADER} {name}\n{}",
                    self.info_asked_of(seat, further, data)
                ))
            })
            .collect()
    }

    /// The starting info asked of the character at `seat`, his player's
    /// `further`th after his first.
    fn info_asked_of(&self, seat: &str, further: u32, data: &GameData) -> String {
        let Some(card) = self
            .characters
            .get(seat)
            .and_then(|name| data.characters.iter().find(|c| c.name == *name))
        else {
            return String::new();
        };
        let starts: Vec<&str> = card.start.iter().map(|s| s.label()).collect();
        let base = self.victory_points + further;
        let points = match &self.stages {
            Some(stages) => format!(
                "{} points in all: your stage's next{}, Extended Development",
                crate::development::next_stage_points(
                    stages.get(&card.name).copied().unwrap_or(1),
                    self.stage_points
                ),
                match self.stage_points {
                    1 => "",
                    2 => ", doubled",
                    _ => ", tripled",
                }
            ),
            None if further > 0 => format!(
                "{base} points in all: one more for each of your characters before this \
                 one, 3.1 10.E.4.3"
            ),
            None => format!("{base} points in all"),
        };
        let mut lines = if self.no_requirements {
            String::new()
        } else {
            format!("  Victory: GT 1, SP 0, F 2, N 1, G 1   ({points})\n")
        };
        if !self.from_the_edge {
            lines.push_str(&format!(
                "  Start: {}\n",
                if let [only] = starts.as_slice() {
                    (*only).to_string()
                } else {
                    format!("<{}>", starts.join(" or "))
                }
            ));
        }
        if self.choose_level {
            lines.push_str(&format!(
                "  Level: <1 to 4, the development level your character starts at (4: as his \
                 card shows him); each level below 4th records a victory point fewer, never \
                 under 2, and takes that level's weapon, armour, spells and chits: {}>\n",
                (1..=crate::development::TOP_LEVEL)
                    .map(|l| format!(
                        "level {l} records {}",
                        crate::development::victory_points(base, l)
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if let Some(spells) = spells_asked(card) {
            lines.push_str(&format!("  {spells}\n"));
        }
        let magic = magic_chits(card);
        if !magic.is_empty() {
            lines.push_str(&format!(
                "  Enchanted: <of your MAGIC chits ({}), those that start enchanted; or none>\n",
                magic.join(", ")
            ));
        }
        let offered = choosable(card);
        if self.choose_abilities && !offered.is_empty() {
            lines.push_str(&format!(
                "  Abilities: <the optional abilities you take: {}; or none>\n",
                offered.join(", ")
            ));
        }
        if self.choose_form && card.has_form_choice() {
            lines.push_str("  Form: <Light or Great>\n");
        }
        lines
    }

    /// What the character at `seat` chose beyond the standard starting
    /// info, for the GM's copy: one line each.
    pub fn extra_choices(&self, seat: &str) -> String {
        let Some(info) = self.info.get(seat) else {
            return String::new();
        };
        let mut lines = String::new();
        if self.choose_abilities {
            lines.push_str(&format!("\nAbilities: {}", none_or_list(&info.abilities)));
        }
        if let Some(form) = info.form {
            lines.push_str(&format!("\nForm: {} Elf", form.label()));
        }
        if let Some(level) = info.level {
            lines.push_str(&format!("\nLevel: {level}"));
        }
        lines
    }

    /// The optional abilities each character's player chose, by character.
    pub fn abilities(&self) -> BTreeMap<String, Vec<String>> {
        self.by_character(|info| info.abilities.clone())
    }

    /// The forms the players chose, by character.
    pub fn forms(&self) -> BTreeMap<String, ElfForm> {
        self.by_character(|info| info.form)
            .into_iter()
            .filter_map(|(character, form)| Some((character, form?)))
            .collect()
    }

    /// The MAGIC chits each character starts enchanted, by character.
    pub fn enchanted(&self) -> BTreeMap<String, Vec<String>> {
        self.by_character(|info| info.enchanted.clone())
    }
}

fn none_or_list(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}

/// `Key: value` lines by lower-case key; later lines win.
pub fn key_lines(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|line| line.split_once(':'))
        .map(|(key, value)| (key.trim().to_lowercase(), value.trim().to_string()))
        .collect()
}

/// The native groups whose stock holds some of `character`'s starting
/// weapon and armour at setup (`data/weapons.toml`, `data/armor.toml`).
pub fn supplying_groups<'d>(character: &Character, data: &'d GameData) -> Vec<&'d str> {
    let wanted: Vec<&str> = character
        .weapon
        .iter()
        .chain(&character.armor)
        .map(String::as_str)
        .collect();
    let starts = data
        .weapons
        .iter()
        .map(|w| (w.name.as_str(), &w.start))
        .chain(data.armor.iter().map(|a| (a.name.as_str(), &a.start)));
    let holders: Vec<&str> = starts
        .filter(|(name, _)| wanted.contains(name))
        .flat_map(|(_, start)| start.iter().map(String::as_str))
        .collect();
    data.natives
        .iter()
        .filter(|g| g.stock_holders().iter().any(|h| holders.contains(h)))
        .map(|g| g.name.as_str())
        .collect()
}

/// A player's choice in his setup mail that cannot be read, in his words:
/// the line, what is wrong, and what he may write.
#[derive(Debug, thiserror::Error)]
enum ChoiceRefused {
    #[error(
        "Equipment: missing; name the native group whose stock supplies the {character}'s \
         starting weapon and armour: {groups}"
    )]
    EquipmentMissing { character: String, groups: String },
    #[error(
        "Equipment: the {named} stock none of the {character}'s starting weapon and armour; \
         name one of {groups}"
    )]
    EquipmentNotStocked {
        named: String,
        character: String,
        groups: String,
    },
    #[error(
        "Abilities: missing; name the optional abilities the {character} takes ({offered}), or \
         none"
    )]
    AbilitiesMissing { character: String, offered: String },
    #[error(
        "Abilities: '{name}' is not an optional ability of the {character}; choose from {offered}"
    )]
    NotAnAbility {
        name: String,
        character: String,
        offered: String,
    },
    #[error(
        "Form: the {character} is a Light or a Great Elf; write `Form: Light` or `Form: Great`"
    )]
    NoElfForm { character: String },
}

/// The `Equipment:` line: a group that stocks some of the character's
/// equipment; `None` when no group stocks any of it.
fn read_equipment(
    character: &Character,
    text: Option<&String>,
    data: &GameData,
) -> Result<Option<String>, ChoiceRefused> {
    let groups = supplying_groups(character, data);
    if groups.is_empty() {
        return Ok(None);
    }
    let Some(text) = text else {
        return Err(ChoiceRefused::EquipmentMissing {
            character: character.name.clone(),
            groups: groups.join(", "),
        });
    };
    suggest::find(text, groups.iter().copied())
        .map(|g| Some(g.to_string()))
        .ok_or_else(|| ChoiceRefused::EquipmentNotStocked {
            named: text.clone(),
            character: character.name.clone(),
            groups: groups.join(", "),
        })
}

/// The optional abilities a player may choose: all but the Elf's form,
/// which he always names on its own line.
fn choosable(character: &Character) -> Vec<&str> {
    character
        .abilities
        .iter()
        .filter(|a| a.optional && !a.is_form_choice())
        .map(|a| a.name.as_str())
        .collect()
}

/// The `Abilities:` line: optional abilities of his own, or `none`.
fn read_abilities(
    character: &Character,
    text: Option<&String>,
) -> Result<Vec<String>, ChoiceRefused> {
    let offered = choosable(character);
    if offered.is_empty() {
        return Ok(Vec::new());
    }
    let Some(text) = text else {
        return Err(ChoiceRefused::AbilitiesMissing {
            character: character.name.clone(),
            offered: offered.join(", "),
        });
    };
    let mut chosen = Vec::new();
    for name in list(Some(text)) {
        match suggest::find(&name, offered.iter().copied()) {
            Some(found) if !chosen.iter().any(|c| c == found) => chosen.push(found.to_string()),
            Some(_) => {}
            None => {
                return Err(ChoiceRefused::NotAnAbility {
                    name,
                    character: character.name.clone(),
                    offered: offered.join(", "),
                });
            }
        }
    }
    Ok(chosen)
}

/// The `Form:` line of the Elf: Light or Great.
fn read_form(character: &Character, text: Option<&String>) -> Result<ElfForm, ChoiceRefused> {
    let text = text.map(|t| t.trim().trim_end_matches(" Elf").trim());
    ElfForm::ALL
        .into_iter()
        .find(|f| text.is_some_and(|t| f.label().eq_ignore_ascii_case(t)))
        .ok_or_else(|| ChoiceRefused::NoElfForm {
            character: character.name.clone(),
        })
}

/// `AV at 1,-1 rotation 2` (rotation 0 when left out).
fn read_placement(text: &str, data: &GameData) -> Result<Placement, SetupRefused> {
    let form = "write `Place: <tile> at <q>,<r> rotation <0-5>`";
    let lower = text.to_lowercase();
    let Some(at) = lower.find(" at ") else {
        return Err(SetupRefused(vec![format!(
            "Place: '{text}' names no position; {form}"
        )]));
    };
    let tile = data
        .tiles
        .resolve_or_explain(text[..at].trim())
        .map_err(|e| SetupRefused(vec![format!("Place: {e}")]))?;
    let rest = &lower[at + 4..];
    let (position, rotation) = match rest.split_once("rotation") {
        Some((position, rotation)) => (position, rotation.trim()),
        None => (rest, "0"),
    };
    let numbers: Vec<Result<i32, _>> = position
        .split([',', ' '])
        .filter(|n| !n.trim().is_empty())
        .map(|n| n.trim().parse::<i32>())
        .collect();
    let (Ok(rotation), [Ok(q), Ok(r)]) = (rotation.parse::<u8>(), numbers.as_slice()) else {
        return Err(SetupRefused(vec![format!(
            "Place: cannot read '{text}'; {form}"
        )]));
    };
    Ok(Placement::new(&tile.code, Hex::new(*q, *r), rotation))
}

/// Read a `Victory:` line (`GT 1, F 2, G 2`) into the requirements; the
/// points must add up to `needed`.
///
/// # Errors
/// A part without a category and points, an unknown category, or a total
/// other than `needed`.
pub fn read_victory(text: &str, needed: u32) -> Result<VictoryRequirements, SetupError> {
    let victory = read_victory_categories(text)?;
    check_victory_total(&victory, needed)?;
    Ok(victory)
}

/// Whether `victory`'s points add up to `needed`.
///
/// # Errors
/// They add up to another total, named with `needed`.
pub fn check_victory_total(victory: &VictoryRequirements, needed: u32) -> Result<(), SetupError> {
    let total = victory.total();
    if total != needed {
        return Err(SetupError::MailLine(format!(
            "Victory: the points add up to {total}; they must add up to {needed}"
        )));
    }
    Ok(())
}

/// Read a `Victory:` line's categories and points, whatever their total.
///
/// # Errors
/// A part without a category and points, or an unknown category.
pub fn read_victory_categories(text: &str) -> Result<VictoryRequirements, SetupError> {
    let mut victory = VictoryRequirements::default();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, points) = part.rsplit_once(char::is_whitespace).ok_or_else(|| {
            SetupError::MailLine(format!(
                "Victory: '{part}' needs a category and points, e.g. `F 2`"
            ))
        })?;
        let points: u8 = points.parse().map_err(|_| {
            SetupError::MailLine(format!(
                "Victory: '{points}' in '{part}' is not a number of points"
            ))
        })?;
        let slot = match key.trim().to_lowercase().as_str() {
            "gt" | "great treasures" => &mut victory.great_treasures,
            "sp" | "us" | "spells" | "usable spells" => &mut victory.spells,
            "f" | "fame" => &mut victory.fame,
            "n" | "notoriety" => &mut victory.notoriety,
            "g" | "gold" => &mut victory.gold,
            other => {
                return Err(SetupError::MailLine(format!(
                    "Victory: '{other}' is not a category; use GT, SP, F, N and G"
                )));
            }
        };
        *slot = slot.saturating_add(points);
    }
    Ok(victory)
}

fn read_start(character: &Character, text: Option<&String>) -> Result<StartLocation, SetupError> {
    let allowed: Vec<&str> = character.start.iter().map(|s| s.label()).collect();
    let Some(text) = text else {
        return Err(SetupError::MailLine(format!(
            "Start: missing; the {} may start at {}",
            character.name,
            allowed.join(", ")
        )));
    };
    character
        .start
        .iter()
        .copied()
        .find(|s| s.label().eq_ignore_ascii_case(text.trim()))
        .ok_or_else(|| {
            SetupError::MailLine(format!(
                "Start: the {} cannot start at '{text}'; the starts allowed are {}",
                character.name,
                allowed.join(", ")
            ))
        })
}

fn list(text: Option<&String>) -> Vec<String> {
    text.map(|t| {
        t.split([';', ','])
            .map(str::trim)
            .filter(|s| !s.is_empty() && !s.eq_ignore_ascii_case("none"))
            .map(str::to_string)
            .collect()
    })
    .unwrap_or_default()
}

/// Read a `Spells:` line into the learnable spells the character may
/// start with, as many as the character's card records.
///
/// # Errors
/// Every problem with the line: a spell that is not learnable, named
/// twice, of a type the character may not learn, or a wrong count.
pub fn read_spells(
    character: &Character,
    text: Option<&String>,
    data: &GameData,
) -> Result<Vec<String>, SetupRefused> {
    let learnable: Vec<&str> = data
        .spells
        .iter()
        .filter(|s| s.learnable())
        .map(|s| s.name.as_str())
        .collect();
    let mut problems = Vec::new();
    let mut spells = Vec::new();
    for name in list(text) {
        match suggest::find(&name, learnable.iter().copied()) {
            Some(found) if spells.iter().any(|s| s == found) => {
                problems.push(format!("Spells: '{found}' is named twice"));
            }
            Some(found) => {
                let fits = data
                    .spells
                    .iter()
                    .find(|s| s.name == found)
                    .map(|spell| crate::magic::spellbook::type_allowed(character, spell));
                match fits {
                    Some(Err(why)) => problems.push(format!("Spells: {why}")),
                    _ => spells.push(found.to_string()),
                }
            }
            None => problems.push(format!(
                "Spells: '{name}' is not a learnable spell{}",
                suggest::did_you_mean(&name, learnable.iter().copied())
            )),
        }
    }
    let wanted = usize::from(character.spells);
    if problems.is_empty() && spells.len() != wanted {
        problems.push(format!(
            "Spells: the {} records {}; {} named",
            character.name,
            realmgm_core::words::counted(wanted, "spell", "spells"),
            spells.len()
        ));
    }
    if problems.is_empty() {
        Ok(spells)
    } else {
        Err(SetupRefused(problems))
    }
}

/// The `Spells:` line asked of a player whose character records spells
/// at the start: how many and of which types; `None` for one who records
/// none.
pub fn spells_asked(card: &Character) -> Option<String> {
    let types: Vec<&str> = card.spell_types().iter().map(|t| t.numeral()).collect();
    (card.spells > 0).then(|| {
        format!(
            "Spells: <{} you record, of {} {}>",
            if card.spells == 1 {
                "the spell".to_string()
            } else {
                format!("the {} spells", card.spells)
            },
            if types.len() == 1 { "type" } else { "types" },
            realmgm_core::words::listed(&types)
        )
    })
}

/// The character's MAGIC chits, as a player names them.
fn magic_chits(character: &Character) -> Vec<String> {
    character
        .chits
        .iter()
        .filter(|c| c.action == ChitAction::Magic)
        .map(ToString::to_string)
        .collect()
}

fn read_enchanted(
    character: &Character,
    text: Option<&String>,
) -> Result<Vec<String>, SetupRefused> {
    let magic = magic_chits(character);
    let mut problems = Vec::new();
    let mut chosen = Vec::new();
    for name in list(text) {
        let squeeze = |s: &str| s.split_whitespace().collect::<String>().to_lowercase();
        match magic.iter().find(|m| squeeze(m) == squeeze(&name)) {
            Some(chit) => chosen.push(chit.clone()),
            None if magic.is_empty() => problems.push(format!(
                "Enchanted: the {} has no MAGIC chits to enchant",
                character.name
            )),
            None => problems.push(format!(
                "Enchanted: '{name}' is not one of the character's MAGIC chits ({})",
                magic.join(", ")
            )),
        }
    }
    if problems.is_empty() {
        Ok(chosen)
    } else {
        Err(SetupRefused(problems))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data;

    fn data() -> &'static GameData {
        data::get().unwrap()
    }

    fn built() -> Rules {
        Rules::new([super::super::PLAYER_BUILT_BOARD], crate::rules::TOGGLES).unwrap()
    }

    #[test]
    fn the_starting_info_asked_fits_each_character() {
        let mut setup = SetupByMail::new(
            vec!["Ann".into(), "Ben".into()],
            &Rules::default(),
            data(),
            1,
            5,
        );
        setup.submit("Ann", "Character: Amazon", data()).unwrap();
        setup
            .submit("Ben", "Character: White Knight", data())
            .unwrap();
        let amazon = setup.info_asked("Ann", data());
        assert!(amazon.contains("  Start: Inn\n"), "{amazon}");
        assert!(
            !amazon.contains("Spells:") && !amazon.contains("Enchanted:"),
            "{amazon}"
        );
        let knight = setup.info_asked("Ben", data());
        assert!(knight.contains("Start: <Inn or Chapel>"), "{knight}");
        assert!(
            knight.contains("Spells: <the spell you record, of type I>"),
            "{knight}"
        );
        assert!(knight.contains("MAGIC I5**"), "{knight}");
    }

    /// Under Solitaire Play the lone player is asked no start and sends
    /// none: he enters from the map's edge (3.1 10.E.1.6).
    #[test]
    fn a_solitaire_player_is_asked_no_start_3_1_10_e_1_6() {
        let rules = Rules::new([super::super::SOLITAIRE], crate::rules::TOGGLES).unwrap();
        let mut setup = SetupByMail::new(vec!["Ann".into()], &rules, data(), 1, 5);
        setup.submit("Ann", "Character: Amazon", data()).unwrap();
        assert!(!setup.info_asked("Ann", data()).contains("Start:"));
        setup
            .submit("Ann", "Victory: GT 1, SP 0, F 2, N 1, G 1", data())
            .unwrap();
        assert_eq!(setup.stage(), Stage::Complete);
        let mut standard = SetupByMail::new(vec!["Ann".into()], &Rules::default(), data(), 1, 5);
        standard.submit("Ann", "Character: Amazon", data()).unwrap();
        assert!(standard.info_asked("Ann", data()).contains("Start: Inn"));
        let err = standard
            .submit("Ann", "Victory: GT 1, SP 0, F 2, N 1, G 1", data())
            .unwrap_err();
        assert!(err[0].contains("Start: missing"), "{err:?}");
    }

    /// A setup by mail under Extended Development with `on`, the Amazon
    /// chosen at 1st stage (none carried).
    fn extended_setup(on: &[&str]) -> SetupByMail {
        let rules = Rules::new(on.iter().copied(), crate::rules::TOGGLES).unwrap();
        let mut setup = SetupByMail::new(vec!["Ann".into()], &rules, data(), 1, 5);
        setup.stages = Some(BTreeMap::new());
        setup.submit("Ann", "Character: Amazon", data()).unwrap();
        setup
    }

    /// In a longer game the 1st-stage Amazon is asked twice her next
    /// stage's victory points, 4, and a `Victory:` line of 2 is refused
    /// (3.1 10.E.6.2).
    #[test]
    fn a_longer_extended_game_asks_twice_the_next_stages_points_3_1_10_e_6_2() {
        let plain = extended_setup(&["extended_development"]);
        assert!(plain.info_asked("Ann", data()).contains("(2 points in all"));
        let mut doubled =
            extended_setup(&["extended_development", "extended_development_double_points"]);
        let asked = doubled.info_asked("Ann", data());
        assert!(
            asked.contains("(4 points in all: your stage's next, doubled"),
            "{asked}"
        );
        let err = doubled
            .submit("Ann", "Victory: GT 1, F 1\nStart: Inn", data())
            .unwrap_err();
        assert!(err[0].contains('4'), "{err:?}");
        doubled
            .submit("Ann", "Victory: GT 2, F 2\nStart: Inn", data())
            .unwrap();
        assert_eq!(doubled.stage(), Stage::Complete);
    }

    /// Without victory requirements no `Victory:` line is asked, one sent
    /// is refused, and none is recorded (3.1 10.E.6.10); with them it is
    /// asked and needed.
    #[test]
    fn an_extended_game_without_requirements_takes_no_victory_line_3_1_10_e_6_10() {
        let mut free = extended_setup(&[
            "extended_development",
            "extended_development_without_requirements",
        ]);
        assert!(!free.info_asked("Ann", data()).contains("Victory:"));
        let err = free
            .submit("Ann", "Victory: GT 1, F 1\nStart: Inn", data())
            .unwrap_err();
        assert!(err[0].contains("without victory requirements"), "{err:?}");
        free.submit("Ann", "Start: Inn", data()).unwrap();
        assert_eq!(free.stage(), Stage::Complete);
        assert!(free.victory_requirements().is_empty());
        let mut asked = extended_setup(&["extended_development"]);
        assert!(asked.info_asked("Ann", data()).contains("Victory:"));
        let err = asked.submit("Ann", "Start: Inn", data()).unwrap_err();
        assert!(err[0].contains("Victory: missing"), "{err:?}");
    }

    #[test]
    fn players_choose_in_turn_then_send_starting_info() {
        let mut setup = SetupByMail::new(
            vec!["Ann".into(), "Ben".into()],
            &Rules::default(),
            data(),
            1,
            5,
        );
        assert_eq!(setup.stage(), Stage::Choosing("Ann".into()));
        let err = setup
            .submit("Ben", "Character: Wizard", data())
            .unwrap_err();
        assert!(err[0].contains("Ann's turn"), "{err:?}");
        let err = setup
            .submit("Ann", "Character: Amazonn", data())
            .unwrap_err();
        assert!(err[0].contains("did you mean"), "{err:?}");
        let done = setup.submit("ann", "character: amazon", data()).unwrap();
        assert_eq!(done, "You play the Amazon. Ben chooses a character next.");
        let err = setup
            .submit("Ben", "Character: Amazon", data())
            .unwrap_err();
        assert!(err[0].contains("already taken"), "{err:?}");
        setup.submit("Ben", "Character: Wizard", data()).unwrap();
        assert_eq!(
            setup.stage(),
            Stage::StartingInfo(vec!["Ann".into(), "Ben".into()])
        );

        let err = setup
            .submit("Ann", "Victory: GT 1, F 1\nStart: Chapel", data())
            .unwrap_err();
        assert_eq!(err.len(), 2, "{err:?}");
        assert!(err[0].contains("add up to 2"), "{err:?}");
        assert!(err[1].contains("cannot start at 'Chapel'"), "{err:?}");
        setup
            .submit(
                "Ann",
                "Victory: GT 1, SP 0, F 2, N 1, G 1\nStart: Inn",
                data(),
            )
            .unwrap();
        let wizard = data()
            .characters
            .iter()
            .find(|c| c.name == "Wizard")
            .unwrap();
        let err = setup
            .submit(
                "Ben",
                "Victory: G 5\nStart: Inn\nEnchanted: MAGIC IX9",
                data(),
            )
            .unwrap_err();
        assert!(
            err.iter().any(|e| e.contains("records")) || wizard.spells == 0,
            "{err:?}"
        );
        assert!(
            err.iter()
                .any(|e| e.contains("not one of the character's MAGIC chits")),
            "{err:?}"
        );
        let allowed = |s: &&crate::data::spells::Spell| {
            crate::magic::spellbook::type_allowed(wizard, s).is_ok()
        };
        let pick = |fits: bool| -> Vec<&str> {
            data()
                .spells
                .iter()
                .filter(|s| s.learnable() && allowed(s) == fits)
                .take(usize::from(wizard.spells))
                .map(|s| s.name.as_str())
                .collect()
        };
        let wrong = format!(
            "Victory: G 5\nStart: Inn\nSpells: {}",
            pick(false).join("; ")
        );
        let err = setup.submit("Ben", &wrong, data()).unwrap_err();
        assert!(
            err.iter().any(|e| e.contains("MAGIC chits of type")),
            "a spell of a type he cannot cast is refused by mail: {err:?}"
        );
        let spells = pick(true);
        let magic = wizard
            .chits
            .iter()
            .find(|c| c.action == ChitAction::Magic)
            .unwrap()
            .to_string();
        let text = format!(
            "Victory: G 5\nStart: Inn\nSpells: {}\nEnchanted: {}",
            spells.join("; "),
            magic.to_lowercase()
        );
        setup.submit("Ben", &text, data()).unwrap();
        assert_eq!(setup.stage(), Stage::Complete);
        assert_eq!(setup.info["Ben"].enchanted, vec![magic]);
        assert_eq!(setup.starts()["Amazon"], StartLocation::Inn);
        let err = setup.submit("Ann", "Character: Elf", data()).unwrap_err();
        assert!(err[0].contains("complete"), "{err:?}");
        let json = serde_json::to_value(&setup).unwrap();
        assert_eq!(serde_json::from_value::<SetupByMail>(json).unwrap(), setup);
    }

    /// Play the board building of `setup` to its end: each player places
    /// the first of his tiles that joins the map best, and chooses
    /// `characters` in turn with the first group that can equip him.
    pub(crate) fn build_the_board(setup: &mut SetupByMail, characters: &[&str]) -> Vec<String> {
        let mut chosen = characters.iter();
        let mut answers = Vec::new();
        loop {
            let (player, text) = match setup.stage() {
                Stage::Placing(player) => {
                    let text = best_placement(setup, &player).expect("a tile fits");
                    (player, text)
                }
                Stage::Choosing(player) => {
                    let name = chosen.next().expect("a character to choose");
                    let card = data().characters.iter().find(|c| c.name == *name).unwrap();
                    let group = supplying_groups(card, data()).first().copied();
                    let text = format!("Character: {name}\nEquipment: {}", group.unwrap_or("none"));
                    (player, text)
                }
                _ => return answers,
            };
            let answer = setup.submit(&player, &text, data());
            answers.push(answer.unwrap_or_else(|e| panic!("{player}: {text}: {e:?}")));
        }
    }

    /// The `Place:` line of the first of `player`'s tiles that joins the
    /// map best.
    pub(crate) fn best_placement(setup: &SetupByMail, player: &str) -> Option<String> {
        let p = setup.legal_example(player, data())?;
        Some(format!(
            "Place: {} at {},{} rotation {}",
            p.tile, p.at.q, p.at.r, p.rotation
        ))
    }

    #[test]
    fn the_seed_deals_the_tiles_and_players_out_of_tiles_choose_characters() {
        let mut setup = SetupByMail::new(vec!["Ann".into(), "Ben".into()], &built(), data(), 3, 5);
        assert_eq!(
            setup.hands["Ann"].len() + setup.hands["Ben"].len(),
            TILE_COUNT
        );
        assert_eq!(setup.hands["Ann"].len(), 10);
        let again = SetupByMail::new(vec!["Ann".into(), "Ben".into()], &built(), data(), 3, 5);
        assert_eq!(setup.hands, again.hands, "the deal is the seed's");
        // The holder of the Borderland places first, and it goes first.
        let first = if setup.hands["Ann"].iter().any(|t| t == FIRST_TILE) {
            "Ann"
        } else {
            "Ben"
        };
        let other = if first == "Ann" { "Ben" } else { "Ann" };
        assert_eq!(setup.stage(), Stage::Placing(first.into()));
        let err = setup
            .submit(other, "Place: BL at 0,0 rotation 0", data())
            .unwrap_err();
        assert!(err[0].contains(&format!("{first}'s turn")), "{err:?}");
        let not_mine = setup.hands[other][0].clone();
        let err = setup
            .submit(first, &format!("Place: {not_mine} at 0,0"), data())
            .unwrap_err();
        assert!(err[0].contains("was not dealt to you"), "{err:?}");
        let answers = build_the_board(&mut setup, &["Amazon", "Wizard"]);
        assert!(setup.tiles_left(data()).is_empty());
        assert!(setup.hands.values().all(Vec::is_empty));
        // Both ran out of tiles at their last turn and then chose.
        let chose: Vec<&String> = answers
            .iter()
            .filter(|a| a.starts_with("You play"))
            .collect();
        assert_eq!(chose.len(), 2, "{answers:?}");
        assert!(
            chose[0].contains("(starting equipment from the "),
            "{chose:?}"
        );
        assert_eq!(setup.equipment.len(), 2);
        assert_eq!(setup.stage(), Stage::PlacingVisitors("Ann".into()));
        let json = serde_json::to_value(&setup).unwrap();
        assert_eq!(serde_json::from_value::<SetupByMail>(json).unwrap(), setup);
    }

    #[test]
    fn a_character_names_a_group_that_stocks_his_equipment() {
        let amazon = data()
            .characters
            .iter()
            .find(|c| c.name == "Amazon")
            .unwrap();
        let groups = supplying_groups(amazon, data());
        assert!(!groups.is_empty());
        let err = read_equipment(amazon, None, data())
            .unwrap_err()
            .to_string();
        assert!(err.contains("Equipment: missing"), "{err}");
        let err = read_equipment(amazon, Some(&"Bashkars".to_string()), data())
            .unwrap_err()
            .to_string();
        assert!(err.contains("stock none of the Amazon's"), "{err}");
        let named = read_equipment(amazon, Some(&groups[0].to_lowercase()), data()).unwrap();
        assert_eq!(named.as_deref(), Some(groups[0]));
    }

    #[test]
    fn players_build_the_board_in_turn_by_the_map_rules() {
        let mut setup = SetupByMail::new(vec!["Ann".into(), "Ben".into()], &built(), data(), 3, 5);
        let first = match setup.stage() {
            Stage::Placing(p) => p,
            other => panic!("{other:?}"),
        };
        let second = setup.hands[&first]
            .iter()
            .find(|t| *t != FIRST_TILE)
            .unwrap()
            .clone();
        let err = setup
            .submit(&first, &format!("Place: {second} at 1,0"), data())
            .unwrap_err();
        assert!(err[0].contains("Borderland is placed first"), "{err:?}");
        let err = setup
            .submit(&first, "Place: Borderland at zero", data())
            .unwrap_err();
        assert!(err[0].contains("cannot read"), "{err:?}");
        build_the_board(&mut setup, &["Amazon", "Elf"]);
        assert_eq!(setup.board().unwrap().len(), TILE_COUNT);
        // The chits go round the table again from the first seat.
        assert_eq!(setup.stage(), Stage::PlacingVisitors("Ann".into()));
        let boxes = setup.boxes_left(data());
        let chits = setup.chits_left(data());
        assert_eq!(chits.len(), setup.visitor_chits);
        let err = setup
            .submit(
                "Ann",
                &format!("Visitor: {} in Nowhere", chits[0].0),
                data(),
            )
            .unwrap_err();
        assert!(err[0].contains("not an empty row-6 box"), "{err:?}");
        let who = ["Ann", "Ben"];
        for (index, (chit, place)) in chits.iter().zip(&boxes).enumerate() {
            let line = format!("Visitor: {} in {place}", chit.1);
            setup.submit(who[index % 2], &line, data()).unwrap();
        }
        assert_eq!(
            setup.stage(),
            Stage::StartingInfo(vec!["Ann".into(), "Ben".into()])
        );
        let placed = setup.visitor_boxes().unwrap();
        assert_eq!(placed.len(), chits.len());
        assert_eq!(placed[&boxes[0]], chits[0].1);
    }

    #[test]
    fn players_choose_optional_abilities_and_the_elf_his_form() {
        let rules = Rules::new(["chosen_optional_abilities"], crate::rules::TOGGLES).unwrap();
        let mut setup = SetupByMail::new(vec!["Ann".into(), "Ben".into()], &rules, data(), 1, 5);
        setup.submit("Ann", "Character: Elf", data()).unwrap();
        setup.submit("Ben", "Character: Captain", data()).unwrap();
        assert!(
            setup
                .info_asked("Ann", data())
                .contains("Form: <Light or Great>")
        );
        assert!(
            setup
                .info_asked("Ben", data())
                .contains("Abilities: <the optional abilities you take: Leadership; or none>")
        );
        let elf = |extra: &str| {
            format!("Victory: G 5\nStart: Inn\nSpells: Elven Grace; Faerie Lights\n{extra}")
        };
        let err = setup.submit("Ann", &elf(""), data()).unwrap_err();
        assert!(
            err.iter().any(|e| e.contains("write `Form: Light`")),
            "{err:?}"
        );
        setup
            .submit("Ann", &elf("Form: Great Elf\nAbilities: none"), data())
            .unwrap_or_else(|e| panic!("{e:?}"));
        let err = setup
            .submit("Ben", "Victory: G 5\nStart: Inn\nAbilities: Flight", data())
            .unwrap_err();
        assert!(
            err[0].contains("not an optional ability of the Captain"),
            "{err:?}"
        );
        setup
            .submit(
                "Ben",
                "Victory: G 5\nStart: Inn\nAbilities: leadership",
                data(),
            )
            .unwrap();
        assert_eq!(setup.forms()["Elf"], ElfForm::Great);
        assert_eq!(setup.abilities()["Captain"], vec!["Leadership".to_string()]);
        assert_eq!(setup.extra_choices("Ben"), "\nAbilities: Leadership");
    }

    /// Under Development each player writes his starting level with his
    /// start, and records a victory point fewer per level below 4th, never
    /// under two (3.1 10.E.5.3).
    #[test]
    fn players_name_a_starting_level_and_record_fewer_points_3_1_10_e_5_3() {
        let rules = Rules::new(["development"], crate::rules::TOGGLES).unwrap();
        let mut setup = SetupByMail::new(vec!["Ann".into(), "Ben".into()], &rules, data(), 1, 5);
        setup.submit("Ann", "Character: Amazon", data()).unwrap();
        setup.submit("Ben", "Character: Berserker", data()).unwrap();
        let asked = setup.info_asked("Ann", data());
        assert!(asked.contains("Level: <1 to 4"), "{asked}");
        assert!(asked.contains("level 1 records 2"), "{asked}");
        let err = setup
            .submit("Ann", "Victory: G 5\nStart: Inn", data())
            .unwrap_err();
        assert!(err.iter().any(|e| e.contains("Level: missing")), "{err:?}");
        let err = setup
            .submit("Ann", "Level: 5\nVictory: G 5\nStart: Inn", data())
            .unwrap_err();
        assert!(err.iter().any(|e| e.contains("1, 2, 3 or 4")), "{err:?}");
        let err = setup
            .submit("Ann", "Level: 1\nVictory: G 5\nStart: Inn", data())
            .unwrap_err();
        assert!(err.iter().any(|e| e.contains('2')), "{err:?}");
        setup
            .submit("Ann", "Level: 1st\nVictory: G 2\nStart: Inn", data())
            .unwrap_or_else(|e| panic!("{e:?}"));
        setup
            .submit("Ben", "Level: 3\nVictory: G 4\nStart: Inn", data())
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(
            setup.levels(),
            [("Amazon".to_string(), 1), ("Berserker".to_string(), 3)].into()
        );
        assert_eq!(setup.extra_choices("Ann"), "\nLevel: 1");
    }

    /// Ann plays two characters and Ben one, by the default rules.
    fn ann_plays_two() -> SetupByMail {
        let mut setup = SetupByMail::new(
            vec!["Ann".into(), "Ben".into()],
            &Rules::default(),
            data(),
            1,
            5,
        );
        setup.several.insert("Ann".into(), 2);
        setup
    }

    /// A player of several characters picks one a turn, the turns going
    /// round the table until every seat has its character (3.1 10.E.4.2).
    #[test]
    fn a_player_of_several_characters_chooses_one_a_turn_3_1_10_e_4_2() {
        let mut setup = ann_plays_two();
        assert_eq!(setup.seats_of("Ann"), ["Ann/1", "Ann/2"]);
        assert_eq!(setup.seats_of("Ben"), ["Ben"]);
        let first = setup.submit("Ann", "Character: Amazon", data()).unwrap();
        assert_eq!(
            first,
            "You play the Amazon, character 1 of your 2. Ben chooses a character next."
        );
        let err = setup
            .submit("Ann", "Character: Berserker", data())
            .unwrap_err();
        assert!(err[0].contains("Ben's turn"), "{err:?}");
        setup.submit("Ben", "Character: Wizard", data()).unwrap();
        assert_eq!(setup.stage(), Stage::Choosing("Ann".into()));
        let err = setup
            .submit("Ann", "Character: Amazon", data())
            .unwrap_err();
        assert!(err[0].contains("already taken"), "{err:?}");
        let second = setup.submit("Ann", "Character: Berserker", data()).unwrap();
        assert!(second.contains("character 2 of your 2"), "{second}");
        assert_eq!(setup.characters_of("Ann"), ["Amazon", "Berserker"]);
        assert_eq!(
            setup.stage(),
            Stage::StartingInfo(vec!["Ann".into(), "Ben".into()])
        );
    }

    /// On a player-built board a player of several characters picks one
    /// on each of his turns once out of tiles, each with his own starting
    /// equipment (3.1 10.E.4.2).
    #[test]
    fn out_of_tiles_a_player_of_several_picks_one_each_turn_3_1_10_e_4_2() {
        let mut setup = SetupByMail::new(vec!["Ann".into(), "Ben".into()], &built(), data(), 3, 5);
        setup.several.insert("Ann".into(), 2);
        let answers = build_the_board(&mut setup, &["Amazon", "Wizard", "Berserker"]);
        assert_eq!(setup.characters_of("Ann").len(), 2, "{answers:?}");
        assert_eq!(setup.characters_of("Ben").len(), 1);
        assert!(
            answers.iter().any(|a| a.contains("character 2 of your 2")),
            "{answers:?}"
        );
        assert_eq!(setup.equipment_groups().len(), 3, "{:?}", setup.equipment);
        assert_eq!(setup.stage(), Stage::PlacingVisitors("Ann".into()));
    }

    /// Each character's starting info goes under his `Orders for:` line
    /// (3.1 10.E.4.4), and the further one records a victory point more
    /// (10.E.4.3); a mail with any problem records nothing.
    #[test]
    fn each_characters_starting_info_under_his_line_a_point_more_each_3_1_10_e_4_3() {
        let mut setup = ann_plays_two();
        for (player, character) in [("Ann", "Amazon"), ("Ben", "Wizard"), ("Ann", "Berserker")] {
            setup
                .submit(player, &format!("Character: {character}"), data())
                .unwrap();
        }
        let asked = setup.info_asked("Ann", data());
        assert!(
            asked.starts_with(
                "Orders for: Amazon\n  Victory: GT 1, SP 0, F 2, N 1, G 1   (5 points in all)\n"
            ),
            "{asked}"
        );
        assert!(
            asked.contains("Orders for: Berserker\n  Victory: GT 1, SP 0, F 2, N 1, G 1   (6 points in all: one more"),
            "{asked}"
        );
        let err = setup
            .submit("Ann", "Victory: G 5\nStart: Inn", data())
            .unwrap_err();
        assert!(
            err[0].contains("'Orders for: Amazon' and 'Orders for: Berserker'"),
            "{err:?}"
        );
        let err = setup
            .submit(
                "Ann",
                "Hello\nOrders for: Dwarf\nVictory: G 5\nOrders for: Amazon\nVictory: G 5\nStart: \
                 Inn\nOrders for: Berserker\nVictory: G 5\nStart: Inn",
                data(),
            )
            .unwrap_err();
        assert!(err[0].contains("line 1 comes before"), "{err:?}");
        assert!(
            err[1].contains("'Dwarf' is not a character you play"),
            "{err:?}"
        );
        assert!(
            err[2]
                .contains("the Berserker: Victory: the points add up to 5; they must add up to 6"),
            "{err:?}"
        );
        assert!(setup.info.is_empty(), "nothing recorded: {:?}", setup.info);
        let amazon = setup
            .submit(
                "Ann",
                "Orders for: amazon\nVictory: G 5\nStart: Inn",
                data(),
            )
            .unwrap();
        assert!(
            amazon.ends_with("Still to send: the starting info of the Berserker."),
            "{amazon}"
        );
        assert_eq!(
            setup.stage(),
            Stage::StartingInfo(vec!["Ann".into(), "Ben".into()])
        );
        setup
            .submit(
                "Ann",
                "Orders for: Berserker\nVictory: F 6\nStart: Inn",
                data(),
            )
            .unwrap();
        assert_eq!(setup.stage(), Stage::StartingInfo(vec!["Ben".into()]));
        let points: Vec<(String, u32)> = setup
            .victory_requirements()
            .into_iter()
            .map(|(character, v)| (character, v.total()))
            .collect();
        assert_eq!(
            points,
            [("Amazon".to_string(), 5), ("Berserker".to_string(), 6)]
        );
    }

    /// Whose turn to place it is.
    fn placing(setup: &SetupByMail) -> String {
        match setup.stage() {
            Stage::Placing(p) => p,
            other => panic!("{other:?}"),
        }
    }

    /// Ann and Ben on a player-built board with the Borderland placed, and
    /// who placed it.
    fn borderland_placed() -> (SetupByMail, String) {
        let mut setup = SetupByMail::new(vec!["Ann".into(), "Ben".into()], &built(), data(), 3, 5);
        let first = placing(&setup);
        let line = best_placement(&setup, &first).unwrap();
        setup.submit(&first, &line, data()).unwrap();
        (setup, first)
    }

    #[test]
    fn a_player_with_no_tile_that_fits_is_passed_over_until_the_map_grows() {
        let (mut setup, first) = borderland_placed();
        assert!(
            setup.no_place.is_empty(),
            "every hand has a place next to the Borderland"
        );
        let second = placing(&setup);
        assert_ne!(second, first);
        // Were none of his tiles to fit, his turn would pass back.
        setup.no_place = vec![second.clone()];
        assert_eq!(setup.stage(), Stage::Placing(first.clone()));
        // Nobody's fitting: the seat whose turn it is is asked all the same.
        setup.no_place = vec![first.clone(), second.clone()];
        assert_eq!(setup.stage(), Stage::Placing(second));
    }

    #[test]
    fn a_setup_stored_before_tiles_were_dealt_deals_what_is_left() {
        let (mut setup, _) = borderland_placed();
        // As an older realmgm stored it: no hands.
        setup.hands.clear();
        setup.deal_if_undealt(data(), 3);
        let dealt: usize = setup.hands.values().map(Vec::len).sum();
        assert_eq!(dealt, TILE_COUNT - 1);
        assert_eq!(setup.turn, 1, "the turn goes on round the table");
        let again = setup.clone();
        setup.deal_if_undealt(data(), 3);
        assert_eq!(setup, again, "dealt once");
    }
}
