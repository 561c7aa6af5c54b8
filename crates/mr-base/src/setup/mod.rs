//! A new game from a seed: the board, the map chits, the dwellings, every
//! denizen in its place, every treasure, spell, horse, weapon and armour
//! with its holder, the visitor/mission chits on the setup card and the
//! characters at their starts ([`new_game`]).
//!
//! Rules: `data/chits.toml` (site contents), §6.2 (setup card), §7.2 (map
//! chits), §7.3 (dwellings and ghosts), §8 (natives); BIMR3 rules (BIMR3:
//! players build the board and place the visitor chits). The map chits are
//! dealt in [`chits`], the items in [`items`].
//!
//! Dice purposes: `setup/board/...` (the random map), `setup/chits/...`,
//! `setup/treasures/...`, `setup/spells/<type>`, `setup/visitors` and
//! `setup/visitors/side`, `setup/starts/<character>`; with two Realms
//! combined the second game's own draws add `/II` ([`realm_purpose`]) and
//! `setup/counters/<class>` mixes the weapons and horses.
//!
//! Two Realms combined (3.1 10.E.7, `combined_realms`): the double board,
//! both games' map chits mixed over it, two setup cards (treasures mixed,
//! denizens, Spell cards and row-6 chits on their own game's card), each
//! game's garrisons at its own dwellings, and a character of the second
//! game (seated as `Amazon II`) starting at a dwelling of that game.

pub mod by_mail;
mod chits;
#[cfg(test)]
mod combined_tests;
pub mod development;
mod items;
pub mod mail;
pub mod sections;
#[cfg(test)]
mod tests;

pub use chits::DWELLING_CLEARING;

use std::collections::BTreeMap;

use thiserror::Error;

use super::board::{Board, ClearingId, Placement, generate::generate, solitaire};
use super::data::GameData;
use super::data::characters::StartLocation;
use super::data::monsters::{CounterStart, Monster};
use super::data::realms::Realm;
use super::state::{
    CharacterState, CounterSide, DenizenKind, DenizenState, MrState, VictoryRequirements,
    Whereabouts,
};
use realmgm_core::dice::Dice;
use realmgm_core::game::{Rules, Seat};
use realmgm_core::suggest;

/// The rule toggle under which players build the board.
pub const PLAYER_BUILT_BOARD: &str = "player_built_board";

/// The rule toggle of Solitaire Play (3.1 10.E.1).
pub const SOLITAIRE: &str = "solitaire";

/// Where the ghosts wait under Solitaire Play until the Valley chit that
/// shows them turns face up (3.1 10.E.1.5).
pub const GHOSTS_BOX: &str = "Ghosts";

/// Choices players make at setup instead of the dice.
#[derive(Clone, Debug, Default)]
pub struct SetupInputs {
    /// The players' tile placements, in placing order; required when the
    /// `player_built_board` rule is on, refused when it is off.
    pub board: Option<Vec<Placement>>,
    /// Row-6 box → the chit side the players put there face up (BIMR3
    /// places them by hand). `None`: the dice place them.
    pub visitors: Option<BTreeMap<String, String>>,
    /// Character → chosen start. A character not listed starts at one of
    /// his allowed starts chosen by the dice.
    pub starts: BTreeMap<String, StartLocation>,
    /// Character → the victory requirements his player recorded secretly
    /// (BIMR3 "5 VP's needed"); scored at the end of the month.
    pub victory_requirements: BTreeMap<String, VictoryRequirements>,
    /// Character → the spells his player records at the start (magic summary;
    /// up to his allowance). A character not listed has his spells chosen
    /// by the dice.
    pub spells: BTreeMap<String, Vec<String>>,
    /// Character → the native group whose stock supplies his starting
    /// weapon and armour (BIMR3 "SELECTING CHARACTERS"): those counters
    /// leave the group's stock. A character not listed brings his own.
    pub equipment: BTreeMap<String, String>,
    /// Character → the optional abilities his player chose
    /// (`chosen_optional_abilities`).
    pub abilities: BTreeMap<String, Vec<String>>,
    /// The Elf's form, when his player chose it; otherwise the dice choose
    /// when his form ability is in force.
    pub forms: BTreeMap<String, crate::data::characters::ElfForm>,
    /// Character → the level he starts at under the development rule (3.1
    /// 10.E.5.3); a character not listed starts at 4th.
    pub levels: BTreeMap<String, u8>,
    /// Character → the stage and extra chits the campaign carries for him
    /// under Extended Development (3.1 10.E.6); a character not listed
    /// starts at 1st stage.
    pub carried: BTreeMap<String, crate::state::development::Carried>,
}

/// Why a game cannot be set up; worded for the GM.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SetupError {
    #[error(
        "the player_built_board rule is on, so the board must come from the players' tile \
         placements, and none were given; give all 20 placements (see `realmgm board show \
         --placements FILE`) or switch the rule off"
    )]
    MissingBoard,
    #[error(
        "tile placements were given but the player_built_board rule is off; switch the rule \
         on or leave the placements out for a random board"
    )]
    UnexpectedBoard,
    #[error("the players' board is not legal: {0}")]
    Board(String),
    #[error("the map does not fit the setup: {0}")]
    Map(String),
    #[error(
        "the solitaire rule is on, so the game has exactly one player, and {count} are seated; \
         remove players until one is left, or switch the rule off"
    )]
    SolitaireSeats { count: usize },
    /// A line of a player's setup mail that does not read; the text says
    /// what to write.
    #[error("{0}")]
    MailLine(String),
    #[error("seat of {player} has no character yet; every player must choose one before setup")]
    NoCharacter { player: String },
    #[error("there is no character '{name}'{hint}")]
    UnknownCharacter { name: String, hint: String },
    #[error("the {name} is chosen by two players; each character plays once")]
    CharacterTwice { name: String },
    #[error(
        "{player} is seated for several characters, which only the multiple_characters rule \
         allows (3.1 10.E.4); switch it on or give {player} one character"
    )]
    SeveralCharacters { player: String },
    #[error(
        "{player} plays several characters, whose seats are named {player}/1, {player}/2 and \
         so on, but {seat} is another player's name; rename that player"
    )]
    SeatTaken { player: String, seat: String },
    #[error("the {name} may not start at {start}; allowed: {allowed}")]
    BadStart {
        name: String,
        start: String,
        allowed: String,
    },
    #[error("a start was given for the {name}, who is not in the game")]
    StartForAbsent { name: String },
    #[error("visitor placement: {0}")]
    Visitors(String),
    #[error(
        "victory requirements were given for the {name}, who is not in the game; give them \
         only for characters that play"
    )]
    RequirementsForAbsent { name: String },
    #[error("starting spells: {0}")]
    Spells(String),
    #[error("starting equipment of the {character}: {why}")]
    Equipment { character: String, why: String },
    /// A part of Combining Realms setup that is not built.
    #[error(
        "{what} is not implemented yet with Combining Realms (combined_realms, 3.1 10.E.7); \
         {instead}"
    )]
    NotWithCombinedRealms {
        what: &'static str,
        instead: &'static str,
    },
    #[error(
        "{role} is a character of the second Realm, which plays only with two Realms combined \
         (combined_realms, 3.1 10.E.7.4.2); seat the {character} without the II, or switch \
         the rule on"
    )]
    SecondRealmAlone { role: String, character: String },
}

/// The dice purpose of a draw each game makes for itself: the first game's
/// as a one-Realm game makes it, the second's with `/II` after it.
pub(crate) fn realm_purpose(realm: Realm, purpose: &str) -> String {
    match realm {
        Realm::First => purpose.to_string(),
        Realm::Second => format!("{purpose}/{}", crate::data::realms::SECOND_REALM_MARK),
    }
}

/// Set up a new game.
///
/// # Errors
/// A missing or illegal players' board, a seat without a character, an
/// unknown or doubled character, an illegal start or visitor placement.
pub fn new_game(
    data: &GameData,
    seats: &[Seat],
    rules: &Rules,
    inputs: &SetupInputs,
    dice: &mut Dice,
) -> Result<MrState, SetupError> {
    let solitaire = rules.is_on(SOLITAIRE);
    if solitaire && seats.len() != 1 {
        return Err(SetupError::SolitaireSeats { count: seats.len() });
    }
    let realms = realms_in_play(rules, inputs)?;
    let board = match build_board(data, rules, inputs)? {
        Some(board) => board,
        None if solitaire => solitaire::generate(&data.tiles, dice),
        None if realms.len() > 1 => generate(
            crate::data::double_board_tiles().map_err(|e| SetupError::Map(e.to_string()))?,
            dice,
        ),
        None => generate(&data.tiles, dice),
    };
    // A solitaire player leaves the Valley chits face down (3.1 10.E.1.5).
    let mut dealt = chits::deal(data, &board, !solitaire, realms, dice)?;
    let denizens = place_denizens(data, realms, &dealt);
    let entries = if solitaire {
        edge_entries(&board)?
    } else {
        Vec::new()
    };
    let mut holdings = items::deal(data, realms, dice);
    take_equipment_from_stock(data, &inputs.equipment, &mut holdings)?;
    let visitor_boxes = place_visitors(data, realms, inputs.visitors.as_ref(), dice)?;
    let mut characters = seat_characters(data, rules, seats, inputs, &dealt, &entries, dice)?;
    seat_several(
        &mut characters,
        rules.is_on(crate::rules::MULTIPLE_CHARACTERS),
    )?;
    crate::development::check_options(rules).map_err(|e| SetupError::MailLine(e.to_string()))?;
    for character in &mut characters {
        if rules.is_on(crate::development::EXTENDED_DEVELOPMENT) {
            development::start_extended(
                data,
                rules,
                character,
                inputs.carried.get(&character.name),
            )
            .map_err(|e| SetupError::MailLine(e.to_string()))?;
        } else if let Some(level) = inputs.levels.get(&character.name) {
            development::start_at(data, rules, character, *level)
                .map_err(|e| SetupError::MailLine(e.to_string()))?;
        }
        character.optional_abilities = inputs
            .abilities
            .get(&character.name)
            .cloned()
            .unwrap_or_default();
        choose_form(
            data,
            rules,
            character,
            inputs.forms.get(&character.name).copied(),
            dice,
        );
    }
    if !rules.is_on(crate::development::EXTENDED_DEVELOPMENT) && !inputs.carried.is_empty() {
        return Err(SetupError::MailLine(
            crate::development::DevelopmentError::ExtendedOff.to_string(),
        ));
    }
    development::native_rewards(data, &mut characters, &inputs.carried, &mut holdings, dice);
    crate::magic::spellbook::record_at_setup(data, &mut characters, &inputs.spells, dice)
        .map_err(|e| SetupError::Spells(e.to_string()))?;
    if let Some(absent) = inputs
        .victory_requirements
        .keys()
        .find(|n| !characters.iter().any(|c| &c.name == *n))
    {
        return Err(SetupError::RequirementsForAbsent {
            name: absent.clone(),
        });
    }
    Ok(MrState {
        day: 0,
        board,
        map_chits: dealt.map_chits,
        lost: dealt.lost,
        dwellings: dealt.dwellings.remove(&Realm::First).unwrap_or_default(),
        second_realm_dwellings: dealt.dwellings.remove(&Realm::Second).unwrap_or_default(),
        denizens,
        holdings,
        visitor_boxes,
        visitors_on_map: BTreeMap::new(),
        treasure_sites: BTreeMap::new(),
        victory_requirements: inputs.victory_requirements.clone(),
        familiars: BTreeMap::new(),
        characters,
        magic: Default::default(),
        battling_today: Vec::new(),
        weather: None,
        arrivals: Vec::new(),
        rulings: Vec::new(),
        leaders: BTreeMap::new(),
        caches: Vec::new(),
        last_day: super::state::DAYS_PER_MONTH,
        victory_points: super::state::VICTORY_POINTS_PER_MONTH,
        solitaire_entry: None,
        fallen: Vec::new(),
    })
}

/// The games whose components are set up: the one, or both when two Realms
/// are combined (3.1 10.E.7).
///
/// # Errors
/// A choice combining Realms does not offer yet: the players' own board,
/// their own placing of the row-6 chits, Solitaire Play.
fn realms_in_play(rules: &Rules, inputs: &SetupInputs) -> Result<&'static [Realm], SetupError> {
    if !rules.is_on(crate::rules::COMBINED_REALMS) {
        return Ok(&Realm::ALL[..1]);
    }
    if let Some(refused) = combined_realms_refusal(rules, false) {
        return Err(refused);
    }
    if inputs.visitors.is_some() {
        return Err(SetupError::NotWithCombinedRealms {
            what: "the players' placing of the row-6 chits",
            instead: "leave the visitor placement out and the dice place each game's chits on \
                      its card",
        });
    }
    Ok(&Realm::ALL)
}

/// What Combining Realms (3.1 10.E.7) cannot yet be played with under
/// `rules`, with the players choosing their characters by mail when
/// `setup_by_mail`: the same refusal whether a campaign file is stored or a
/// game set up; `None` when the rules do not combine Realms or nothing
/// with them is refused.
pub fn combined_realms_refusal(rules: &Rules, setup_by_mail: bool) -> Option<SetupError> {
    if !rules.is_on(crate::rules::COMBINED_REALMS) {
        return None;
    }
    let refused = |what, instead| Some(SetupError::NotWithCombinedRealms { what, instead });
    if rules.is_on(PLAYER_BUILT_BOARD) {
        return refused(
            "a board the players build",
            "switch player_built_board off for a random double board",
        );
    }
    if rules.is_on(SOLITAIRE) {
        return refused(
            "Solitaire Play (3.1 10.E.1)",
            "switch solitaire or combined_realms off",
        );
    }
    if setup_by_mail {
        return refused(
            "setup by mail",
            "set setup_by_mail = false and name each player's character in the campaign file \
             (`character = \"Amazon II\"` for the second game's)",
        );
    }
    None
}

/// The clearings a solitaire character may enter the map at, in order
/// (3.1 10.E.1.6): those of the roads that run from the map's edge to the
/// Borderland; his player chooses one with his first Move. Such a road
/// leaves a clearing through a tile edge with nothing beyond, and that
/// clearing reaches the Borderland by roads anyone may walk (ruling: hidden
/// paths and secret passages are not roads a newcomer knows).
fn edge_entries(board: &Board) -> Result<Vec<ClearingId>, SetupError> {
    use super::data::tiles::PathKind;
    let open = |kind| matches!(kind, PathKind::Normal | PathKind::Cave);
    let mut entries: Vec<ClearingId> = board
        .dead_ends()
        .into_iter()
        .filter(|end| !end.blocked_by_tile)
        .map(|end| end.from)
        .filter(|c| board.reaches_tile(c, super::board::layout::FIRST_TILE, open))
        .collect();
    entries.sort();
    entries.dedup();
    if entries.is_empty() {
        return Err(SetupError::Map(
            "no road runs from the map's edge to the Borderland, so a solitaire character \
             cannot enter"
                .to_string(),
        ));
    }
    Ok(entries)
}

/// The Elf's form when his "Light or Great Elf" ability is in force: his
/// player's choice, else the dice's (`setup/elf form`); then his chits as
/// his abilities shape them. Also for a character entering later.
pub fn choose_form(
    data: &GameData,
    rules: &Rules,
    character: &mut CharacterState,
    chosen: Option<crate::data::characters::ElfForm>,
    dice: &mut Dice,
) {
    use crate::data::characters::ElfForm;
    let has_form = crate::abilities::in_force(data, rules, character)
        .iter()
        .any(|a| a.is_form_choice());
    character.elf_form = has_form
        .then(|| chosen.unwrap_or_else(|| ElfForm::ALL[dice.below("setup/elf form", 2) as usize]));
    crate::abilities::shape_chits(data, rules, character);
}

/// Each character's starting weapon and armour counters leave the stock of
/// the native group his player named, where it holds them; what the group
/// lacks the character brings as usual.
fn take_equipment_from_stock(
    data: &GameData,
    chosen: &BTreeMap<String, String>,
    holdings: &mut BTreeMap<String, Vec<super::state::Item>>,
) -> Result<(), SetupError> {
    for (character, group) in chosen {
        let card = data.characters.iter().find(|c| &c.name == character);
        let realm = Realm::of_name(group);
        let native_group = data
            .natives
            .iter()
            .find(|g| g.name == crate::data::base_name(group));
        let (Some(card), Some(native_group)) = (card, native_group) else {
            return Err(SetupError::Equipment {
                character: character.clone(),
                why: format!("there is no character {character} or native group {group}"),
            });
        };
        for item in card.weapon.iter().chain(&card.armor) {
            for holder in native_group.stock_holders() {
                let Some(stock) = holdings.get_mut(&realm.mark(holder)) else {
                    continue;
                };
                if let Some(at) = stock
                    .iter()
                    .position(|i| super::data::base_name(&i.name) == item.as_str())
                {
                    stock.remove(at);
                    break;
                }
            }
        }
    }
    Ok(())
}

/// The players' board when the rule asks for one, `None` for a random one.
fn build_board(
    data: &GameData,
    rules: &Rules,
    inputs: &SetupInputs,
) -> Result<Option<Board>, SetupError> {
    match (&inputs.board, rules.is_on(PLAYER_BUILT_BOARD)) {
        (None, true) => Err(SetupError::MissingBoard),
        (Some(_), false) => Err(SetupError::UnexpectedBoard),
        (None, false) => Ok(None),
        (Some(placements), true) => {
            let board = Board::from_placements(&data.tiles, placements.iter().cloned())
                .map_err(|e| SetupError::Board(e.to_string()))?;
            board
                .check_players_finished(&data.tiles)
                .map_err(|e| SetupError::Board(e.to_string()))?;
            Ok(Some(board))
        }
    }
}

/// The ids of a monster's counters: its name when it has one counter,
/// otherwise the name and a number (`Wolf A 2`).
pub fn counter_ids(monster: &Monster) -> Vec<String> {
    numbered(&monster.name, monster.counters.len())
}

/// `name` alone for one copy, `name 1`..`name n` for several.
pub(crate) fn numbered(name: &str, copies: usize) -> Vec<String> {
    if copies == 1 {
        vec![name.to_string()]
    } else {
        (1..=copies).map(|n| format!("{name} {n}")).collect()
    }
}

/// Monsters into their setup boxes, on their sites' boxes or (ghosts) on
/// the map; garrisons at their dwellings, roving groups in their boxes.
/// Every counter starts light side up (ruling). With two Realms combined
/// each game's denizens, marked, go to its own card and dwellings (3.1
/// 10.E.7.3.3, 7.4.3).
fn place_denizens(
    data: &GameData,
    realms: &[Realm],
    dealt: &chits::Dealt,
) -> BTreeMap<String, DenizenState> {
    let mut denizens = BTreeMap::new();
    let state = |kind, at| DenizenState {
        kind,
        at,
        side: CounterSide::Light,
    };
    for &realm in realms {
        let in_box = |name: &str| Whereabouts::SetupBox {
            name: realm.mark(name),
        };
        for monster in &data.monsters {
            for (id, start) in counter_ids(monster).into_iter().zip(&monster.counters) {
                let at = match start {
                    CounterStart::Box { name } => in_box(name),
                    CounterStart::Site { site } => Whereabouts::Guarding {
                        site: realm.mark(site),
                    },
                    CounterStart::Ghosts => match dealt.ghosts.get(&realm) {
                        Some(clearing) => Whereabouts::Clearing {
                            clearing: clearing.clone(),
                        },
                        None => in_box(GHOSTS_BOX),
                    },
                };
                denizens.insert(realm.mark(&id), state(DenizenKind::Monster, at));
            }
        }
        let dwellings = dealt.dwellings.get(&realm);
        for group in &data.natives {
            let home = group
                .garrison
                .and_then(|home| dwellings.and_then(|d| d.get(&home)));
            let at = match home {
                Some(clearing) => Whereabouts::Clearing {
                    clearing: clearing.clone(),
                },
                None => in_box(&group.name),
            };
            for member in &group.members {
                denizens.insert(
                    realm.mark(&member.name),
                    state(DenizenKind::Native, at.clone()),
                );
            }
        }
    }
    denizens
}

/// The double-sided row-6 chits: (side face up by default, other side).
/// A visitor's chit shows the visitor; a campaign pair shows either side.
pub(crate) fn visitor_chits(data: &GameData) -> Vec<(String, String)> {
    let mut chits: Vec<(String, String)> = data
        .chits
        .visitor
        .iter()
        .map(|v| (v.name.clone(), v.other_side.clone()))
        .collect();
    for g in &data.chits.gold_special {
        let known = chits.iter().any(|(a, b)| *a == g.name || *b == g.name);
        if !known {
            chits.push((g.name.clone(), g.other_side.clone()));
        }
    }
    chits
}

/// Put the row-6 chits in their boxes: by the players' choice, or shuffled
/// by the dice with each campaign pair's face chosen by a coin (ruling).
/// With two Realms combined each game's chits, marked, go in its own card's
/// boxes (3.1 10.E.7.3.3: visitors are denizens).
fn place_visitors(
    data: &GameData,
    realms: &[Realm],
    chosen: Option<&BTreeMap<String, String>>,
    dice: &mut Dice,
) -> Result<BTreeMap<String, String>, SetupError> {
    let chits = visitor_chits(data);
    let boxes: Vec<String> = data
        .setup_card
        .visitor_box
        .iter()
        .map(|b| b.name.clone())
        .collect();
    let Some(chosen) = chosen else {
        let mut placed = BTreeMap::new();
        for &realm in realms {
            let mut order: Vec<usize> = (0..boxes.len()).collect();
            dice.shuffle(&realm_purpose(realm, "setup/visitors"), &mut order);
            let side = realm_purpose(realm, "setup/visitors/side");
            for ((shown, back), &slot) in chits.iter().zip(&order) {
                let is_visitor = data.chits.visitor(shown).is_some();
                let face = if is_visitor || dice.below(&side, 2) == 0 {
                    shown
                } else {
                    back
                };
                placed.insert(realm.mark(&boxes[slot]), realm.mark(face));
            }
        }
        return Ok(placed);
    };
    let mut used = vec![false; chits.len()];
    for (name, side) in chosen {
        if !boxes.contains(name) {
            return Err(SetupError::Visitors(format!(
                "there is no row-6 box '{name}'; the boxes are {}",
                boxes.join(", ")
            )));
        }
        let Some(index) = chits.iter().position(|(a, b)| a == side || b == side) else {
            return Err(SetupError::Visitors(format!(
                "'{side}' is not a visitor, mission or campaign chit"
            )));
        };
        if std::mem::replace(&mut used[index], true) {
            return Err(SetupError::Visitors(format!(
                "the chit {}/{} is placed twice",
                chits[index].0, chits[index].1
            )));
        }
    }
    if let Some(index) = used.iter().position(|u| !u) {
        return Err(SetupError::Visitors(format!(
            "the chit {}/{} is not placed; every chit goes in a box",
            chits[index].0, chits[index].1
        )));
    }
    Ok(chosen.clone())
}

/// Under Multiple Characters (3.1 10.E.4.1) a player seated several times
/// plays a character at each seat: each of his characters gets a seat of
/// his own, `player/1`, `player/2`, ..., in the order the player took them,
/// so each takes his own turn and sees for himself (10.E.4.4), and the
/// player is his controller. Without the rule a player plays one.
fn seat_several(characters: &mut [CharacterState], allowed: bool) -> Result<(), SetupError> {
    let mut taken: BTreeMap<String, usize> = BTreeMap::new();
    for c in characters.iter() {
        *taken.entry(c.player.clone()).or_default() += 1;
    }
    let mut seated: BTreeMap<String, usize> = BTreeMap::new();
    for c in characters.iter_mut() {
        if taken[&c.player] < 2 {
            continue;
        }
        if !allowed {
            return Err(SetupError::SeveralCharacters {
                player: c.player.clone(),
            });
        }
        let n = seated.entry(c.player.clone()).or_default();
        *n += 1;
        let seat = format!("{}/{n}", c.player);
        if taken.contains_key(&seat) {
            return Err(SetupError::SeatTaken {
                player: c.player.clone(),
                seat,
            });
        }
        c.controller = Some(std::mem::replace(&mut c.player, seat));
    }
    Ok(())
}

/// Each seat's character at his start. A role with the second game's mark
/// (`Amazon II`) seats that game's character, who starts at one of its
/// dwellings (3.1 10.E.7.4.2); one of each character plays either way.
fn seat_characters(
    data: &GameData,
    rules: &Rules,
    seats: &[Seat],
    inputs: &SetupInputs,
    dealt: &chits::Dealt,
    edge_entries: &[ClearingId],
    dice: &mut Dice,
) -> Result<Vec<CharacterState>, SetupError> {
    let mut states: Vec<CharacterState> = Vec::new();
    for seat in seats {
        let wanted = seat
            .role
            .as_deref()
            .ok_or_else(|| SetupError::NoCharacter {
                player: seat.player.clone(),
            })?;
        let realm = Realm::of_name(wanted);
        let names = data.characters.iter().map(|c| c.name.as_str());
        let character = suggest::find(&super::data::realms::printed(wanted), names)
            .and_then(|name| data.characters.iter().find(|c| c.name == name))
            .ok_or_else(|| SetupError::UnknownCharacter {
                name: wanted.to_string(),
                hint: suggest::did_you_mean(
                    wanted,
                    data.characters.iter().map(|c| c.name.as_str()),
                ),
            })?;
        if states.iter().any(|s| s.name == character.name) {
            return Err(SetupError::CharacterTwice {
                name: character.name.clone(),
            });
        }
        if !realm.is_first() && !rules.is_on(crate::rules::COMBINED_REALMS) {
            return Err(SetupError::SecondRealmAlone {
                role: wanted.to_string(),
                character: character.name.clone(),
            });
        }
        let start = match inputs.starts.get(&character.name) {
            Some(start) if character.start.contains(start) => *start,
            Some(start) => {
                return Err(SetupError::BadStart {
                    name: character.name.clone(),
                    start: start.label().to_string(),
                    allowed: character
                        .start
                        .iter()
                        .map(|s| s.label())
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            }
            None => {
                let purpose = format!("setup/starts/{}", character.name);
                character.start[dice.below(&purpose, character.start.len() as u32) as usize]
            }
        };
        if let Some(road) = super::state::Roadway::from_edge(edge_entries.to_vec()) {
            // He waits at the map's edge (3.1 10.E.1.6).
            let mut state =
                CharacterState::entering(character, seat.player.clone(), start, road.to.clone());
            state.roadway = Some(road);
            states.push(state);
            continue;
        }
        let position = match start.dwelling() {
            Some(dwelling) => dealt
                .dwellings
                .get(&realm)
                .and_then(|d| d.get(&dwelling))
                .cloned(),
            None => dealt.ghosts.get(&realm).cloned(),
        }
        .ok_or_else(|| SetupError::Map(format!("the {} start is not on the map", start.label())))?;
        let mut state = CharacterState::entering(character, seat.player.clone(), start, position);
        state.realm = realm;
        states.push(state);
    }
    if let Some(absent) = inputs
        .starts
        .keys()
        .find(|n| !states.iter().any(|s| &s.name == *n))
    {
        return Err(SetupError::StartForAbsent {
            name: absent.clone(),
        });
    }
    Ok(states)
}
