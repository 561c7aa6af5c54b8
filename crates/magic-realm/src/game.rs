//! Magic Realm as a [`Game`] the campaign plumbing can run: its id, its rule
//! toggles ([`crate::rules`]) and its calendar of months and seasons
//! (`data/seasons.toml`).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use anyhow::{Context, anyhow, bail};
use serde::Deserialize;

use realmgm_core::dice::Dice;
use realmgm_core::game::{
    AcceptedOrders, Calendar, CalendarStart, Event, Game, GameState, GameValue, GmRuling,
    MailSetup, OrdersProblem, PublicPages, Reader, Report, RoundsByMail, RuleProfile, RuleToggle,
    Rules, RulesVersions, Seat, Seats, SetupByMail, Start, StartingInfoRefused, Turn, TurnPause,
    TurnResult, TurnStep,
};
use realmgm_core::report::ReportContext;

use crate::combat::by_rounds::RoundAnswers;
use crate::data::GameData;
use crate::data::realms::{self, Realm};
use crate::orders::ruling::parse_ruling;
use crate::setup::{self, SetupInputs};
use crate::state::MrState;
use crate::state::ruling::{QueuedRuling, Ruling};
use crate::{combat, data, day, orders, rules};

mod several;
#[cfg(test)]
mod several_tests;

/// The orders of a character whose player sent none: hide in every phase,
/// as the BIMR3 GM recorded them (the recorded notation in README "Orders").
/// Its remark is [`day::daylight::NO_ORDERS_REMARK`], which the day log
/// says once for the whole turn.
const NO_ORDERS: &str = "Activities: H / H / H / H (No orders received.)";

/// A Magic Realm state read from a stored game state's JSON.
fn read_json(json: &serde_json::Value) -> anyhow::Result<MrState> {
    MrState::deserialize(json).map_err(|e| {
        anyhow!("this is not a Magic Realm game state ({e}); was the campaign's game changed?")
    })
}

/// The Magic Realm state inside a stored game state, read from its JSON the
/// first time and shared after ([`GameState::typed`]).
fn read_state(state: &GameState) -> anyhow::Result<Arc<MrState>> {
    state.typed(read_json)
}

/// The data a game plays with: the embedded components, and the forty
/// tiles of the double board once two Realms are combined (3.1 10.E.7), so
/// the second game's tiles (`AVII5`) are found by name and code.
fn data_for(combined: bool) -> Result<&'static GameData, data::DataBroken> {
    if combined {
        data::combined()
    } else {
        data::get()
    }
}

/// The data the game in `state` plays with ([`data_for`]).
fn data_of(state: &MrState) -> Result<&'static GameData, data::DataBroken> {
    data_for(state.combines_realms())
}

/// The Magic Realm state to change: the reading itself when `state` was
/// its last handle, else a copy ([`GameState::into_typed`]).
fn state_to_change(state: GameState) -> anyhow::Result<MrState> {
    state.into_typed(read_json)
}

/// A player's orders as the engine's day orders: as read, or read back
/// from the store once.
fn read_day_orders(orders: &AcceptedOrders) -> serde_json::Result<Arc<orders::DayOrders>> {
    orders
        .parsed
        .typed(|json| orders::DayOrders::deserialize(json))
}

/// The orders of a turn as the engine's day orders, by seat: a player who
/// plays several characters gives each of his characters' seats its part
/// ([`several::by_seat`]).
fn day_orders(
    state: &MrState,
    orders: &BTreeMap<String, AcceptedOrders>,
) -> anyhow::Result<BTreeMap<String, orders::DayOrders>> {
    let mut parsed = BTreeMap::new();
    for (player, accepted) in orders {
        let day_orders = read_day_orders(accepted).map_err(|e| {
            anyhow!("the stored orders of {player} cannot be read ({e}); have them sent again")
        })?;
        let day_orders = Arc::unwrap_or_clone(day_orders);
        if day_orders.characters.is_empty() {
            parsed.insert(player.clone(), day_orders);
        } else {
            parsed.extend(several::by_seat(state, player, day_orders));
        }
    }
    Ok(parsed)
}

/// The round answers given so far (none, or `null`, for none).
fn round_answers(answers: Option<&GameValue>) -> anyhow::Result<RoundAnswers> {
    let Some(answers) = answers else {
        return Ok(RoundAnswers::default());
    };
    let read = answers.typed(|json| match json {
        serde_json::Value::Null => Ok(RoundAnswers::default()),
        json => RoundAnswers::deserialize(json),
    });
    read.map(Arc::unwrap_or_clone)
        .map_err(|e| anyhow!("the stored combat round answers cannot be read ({e})"))
}

/// One character's orders in `text`, read for the seat `seat`: parsed,
/// then every name checked against the game's components and the
/// characters in play ([`orders::check_names`]): unknown items and natives
/// are problems on their line, unknown characters warnings.
pub(crate) fn read_one(
    data: &GameData,
    in_play: Option<&MrState>,
    rules: &Rules,
    seat: &str,
    text: &str,
) -> Result<(orders::DayOrders, Vec<String>), Vec<OrdersProblem>> {
    let day = match orders::parse_day_orders(text, 1, data) {
        Ok(day) => day,
        Err(errors) => {
            let mut problems: Vec<OrdersProblem> = errors
                .into_iter()
                .map(|e| OrdersProblem {
                    line: e.line,
                    column: e.column,
                    message: e.message,
                })
                .collect();
            // The lines that do read are checked by name too, so a
            // second mistake is told now, not after the first is fixed.
            let faulty: Vec<usize> = problems.iter().map(|p| p.line).collect();
            let rest: String = text
                .lines()
                .enumerate()
                .map(|(i, line)| if faulty.contains(&(i + 1)) { "" } else { line })
                .collect::<Vec<_>>()
                .join("\n");
            if let Ok(day) = orders::parse_day_orders(&rest, 1, data) {
                let (more, _) = orders::mail_check::problems(data, in_play, seat, &day, text);
                problems.extend(more);
                problems.sort_by_key(|p| p.line);
            }
            return Err(problems);
        }
    };
    let (problems, mut warnings) = orders::mail_check::problems(data, in_play, seat, &day, text);
    if !problems.is_empty() {
        return Err(problems);
    }
    match in_play {
        Some(state) => warnings.extend(crate::day::preview::phase_warnings(
            data, rules, state, seat, &day,
        )),
        None => warnings.clear(),
    }
    Ok((day, warnings))
}

/// The game of Magic Realm (2nd edition rules with optional and house rules).
#[derive(Clone, Copy, Debug)]
pub struct MagicRealm;

/// A player's mail cannot be read while the game data are broken.
fn broken_data(e: data::DataBroken) -> Vec<OrdersProblem> {
    vec![OrdersProblem {
        line: 1,
        column: 1,
        message: format!("{e}; tell the GM"),
    }]
}

impl Game for MagicRealm {
    fn id(&self) -> &'static str {
        "magic-realm"
    }

    fn toggles(&self) -> &'static [RuleToggle] {
        rules::TOGGLES
    }

    fn rules_versions(&self) -> RulesVersions {
        rules::RULES_VERSIONS
    }

    fn rule_profiles(&self) -> &'static [RuleProfile] {
        rules::PROFILES
    }

    /// Solitaire Play is one player's game (3.1 10.E.1.1).
    fn most_players(&self, rules: &Rules) -> Option<(usize, &'static str)> {
        rules
            .is_on(setup::SOLITAIRE)
            .then_some((1, setup::SOLITAIRE))
    }

    fn campaign_refusal(&self, rules: &Rules, setup_by_mail: bool) -> Option<String> {
        setup::combined_realms_refusal(rules, setup_by_mail).map(|refused| refused.to_string())
    }

    fn calendar(&self) -> Option<Calendar> {
        Some(Calendar {
            days_per_month: crate::state::DAYS_PER_MONTH,
            points_per_month: crate::state::WEEKS_PER_MONTH,
            points_per_game: crate::state::VICTORY_POINTS_PER_GAME,
            seasons: rules::SEASONS,
            seasons_toggle: rules::SEASONS_TOGGLE,
            season_points: |season| {
                data::get().map_or(0, |data| day::weather::season_points(data, season))
            },
        })
    }

    /// Without a setup by mail the dice choose the starts and the board
    /// ([`setup::new_game`]). The starts, victory requirements, recorded
    /// spells and enchanted chits chosen by mail
    /// ([`setup::by_mail::SetupByMail`]) replace the dice's choices; a
    /// board and row-6 chits the players placed replace the random ones.
    /// The campaign's calendar then starts ([`start_calendar`]).
    fn start(&self, start: &Start<'_>, dice: &mut Dice) -> anyhow::Result<GameState> {
        let data = data_for(start.rules.is_on(rules::COMBINED_REALMS))?;
        let carried = crate::development::carried(start.carry_over)?;
        let mut state = match start.setup {
            Some(chosen) => with_setup(data, start, chosen, carried, dice)?,
            None => setup::new_game(
                data,
                start.seats,
                start.rules,
                &SetupInputs {
                    carried,
                    ..SetupInputs::default()
                },
                dice,
            )?,
        };
        if let Some(calendar) = start.calendar {
            start_calendar(&mut state, start.rules, calendar, dice)?;
        }
        Ok(GameState::from_typed(state))
    }

    fn setup_by_mail(&self) -> Option<&dyn SetupByMail> {
        Some(self)
    }

    /// A game day is simultaneous: every player with a character records,
    /// and every player whose character enters the Realm that day.
    fn awaiting(&self, state: &GameState) -> anyhow::Result<Vec<String>> {
        let state = read_state(state)?;
        // A character leaving the Realm as the turn begins waits for nothing;
        // a player of several characters is waited for once (3.1 10.E.4).
        let mut awaited: Vec<String> = Vec::new();
        let players = state
            .characters
            .iter()
            .filter(|c| !state.leaving(&c.name))
            .map(|c| c.played_by())
            .chain(state.arrivals.iter().map(|a| a.player.as_str()));
        for player in players {
            if !awaited.iter().any(|p| p == player) {
                awaited.push(player.to_string());
            }
        }
        Ok(awaited)
    }

    /// The game ends with its last day (day 28 of its last month): the
    /// final scores are in that day's events, and no day follows.
    fn is_over(&self, state: &GameState) -> anyhow::Result<bool> {
        let state = read_state(state)?;
        Ok(state.day >= state.last_day)
    }

    /// A start report shows his character, where he starts and the form.
    fn sends_start_reports(&self) -> bool {
        true
    }

    /// Each ruling read against the pending state
    /// ([`crate::orders::ruling::parse_ruling`]) and queued for
    /// `day::rulings` at the next Birdsong.
    fn rule(
        &self,
        state: &GameState,
        _rules: &Rules,
        rulings: &[GmRuling],
    ) -> anyhow::Result<GameState> {
        if rulings.is_empty() {
            return Ok(state.clone());
        }
        let mut mr = state_to_change(state.clone())?;
        let data = data_of(&mr)?;
        for given in rulings {
            let ruling = parse_ruling(&given.text, data, &mr)
                .with_context(|| format!("the ruling '{}'", given.text.trim()))?;
            mr.rulings.push(QueuedRuling {
                ruling,
                why: given.why.clone(),
            });
        }
        Ok(GameState::from_typed(mr))
    }

    /// One character's orders ([`read_one`]); a player who plays several
    /// characters heads each one's part with `Orders for:` ([`several`]).
    fn read_orders(
        &self,
        state: &GameState,
        rules: &Rules,
        player: &str,
        text: &str,
    ) -> Result<AcceptedOrders, Vec<OrdersProblem>> {
        // Before setup (no state) nobody plays yet: characters go unchecked.
        let in_play = read_state(state).ok();
        let combined = in_play.as_deref().is_some_and(MrState::combines_realms);
        let data = data_for(combined).map_err(broken_data)?;
        if let Some(mr) = in_play.as_deref().filter(|mr| mr.plays_several(player)) {
            return several::read(data, mr, rules, player, text);
        }
        let (day, warnings) = read_one(data, in_play.as_deref(), rules, player, text)?;
        Ok(AcceptedOrders {
            canonical: day.to_string(),
            warnings,
            parsed: GameValue::from_typed(day),
        })
    }

    fn reads_as_orders(&self, line: &str) -> bool {
        // Whether a line reads as orders, the tiles of either game named.
        data::combined().is_ok_and(|data| orders::sheet::reads_as_orders(line, data))
    }

    fn phases_asked(&self, orders: &AcceptedOrders) -> Option<usize> {
        let day = read_day_orders(orders).ok()?;
        std::iter::once(&*day)
            .chain(day.characters.values())
            .flat_map(|day| {
                [
                    Some(&day.activities),
                    day.familiar.as_ref(),
                    day.phantasm.as_ref(),
                ]
            })
            .flatten()
            .map(|activities| activities.phases.len())
            .max()
    }

    fn safe_orders(&self) -> &'static str {
        "hide in every phase"
    }

    fn repeated_orders(&self, orders: AcceptedOrders) -> AcceptedOrders {
        let Ok(day) = read_day_orders(&orders) else {
            return orders;
        };
        let mut day = Arc::unwrap_or_clone(day);
        day.for_another_day();
        AcceptedOrders {
            canonical: day.to_string(),
            parsed: GameValue::from_typed(day),
            warnings: orders.warnings,
        }
    }

    fn missing_orders(
        &self,
        state: &GameState,
        rules: &Rules,
        player: &str,
    ) -> anyhow::Result<AcceptedOrders> {
        let several = read_state(state)
            .ok()
            .filter(|mr| mr.plays_several(player))
            .map(|mr| several::no_orders(&mr, player, NO_ORDERS));
        self.read_orders(
            state,
            rules,
            player,
            several.as_deref().unwrap_or(NO_ORDERS),
        )
        .map_err(|problems| {
            anyhow::anyhow!(
                "the built-in orders for a missing player do not parse: {}",
                problems
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        })
    }

    /// One game day (play summary I–IV), resolved by [`day::resolve_day`].
    /// With `round_by_round_combat` on, the day stops at a combat round a
    /// character without a `Combat:` line has not answered
    /// ([`combat::by_rounds`](crate::combat::by_rounds)); the answers are
    /// a [`RoundAnswers`].
    fn resolve_turn(
        &self,
        state: GameState,
        turn: &Turn<'_>,
        dice: &mut Dice,
    ) -> anyhow::Result<TurnStep> {
        let (rules, orders) = (turn.rules, turn.orders);
        let state = state_to_change(state)?;
        let data = data_of(&state)?;
        let orders = day_orders(&state, orders)?;
        if !rules.is_on(rules::ROUND_BY_ROUND_COMBAT) {
            let (state, events) = day::resolve_day(data, rules, state, &orders, dice)?;
            let finished = state.day >= state.last_day;
            return Ok(TurnStep::Done(TurnResult {
                state: GameState::from_typed(state),
                events: day::events::to_events(events),
                finished,
            }));
        }
        let mut answers = round_answers(turn.answers)?;
        answers.deadline_passed = turn.deadline_passed;
        // A player of several characters answers each one's rounds in his
        // own mail (3.1 10.E.4).
        let controllers: BTreeMap<String, String> = state
            .characters
            .iter()
            .filter_map(|c| Some((c.player.clone(), c.controller.clone()?)))
            .collect();
        let outcome =
            day::resolve_day_by_rounds(data, rules, state, &orders, Some(&answers), dice)?;
        Ok(match outcome {
            day::DayOutcome::Done(state, events) => {
                let finished = state.day >= state.last_day;
                TurnStep::Done(TurnResult {
                    state: GameState::from_typed(state),
                    events: day::events::to_events(events),
                    finished,
                })
            }
            day::DayOutcome::Stopped(mut decisions, events) => {
                for decision in &mut decisions {
                    decision.controller = controllers.get(&decision.player).cloned();
                }
                TurnStep::Paused(TurnPause {
                    prompts: crate::round_prompts::prompts(&decisions, &events),
                    waiting: GameValue::from_typed(decisions),
                })
            }
        })
    }

    /// A player's report or the GM's history ([`crate::report`]).
    fn report(
        &self,
        state: &GameState,
        events: &[Event],
        reader: Reader<'_>,
        context: &ReportContext,
    ) -> anyhow::Result<Report> {
        let state = read_state(state)?;
        let data = data_of(&state)?;
        match reader {
            Reader::Player(player) => {
                crate::report::player_report(data, &state, events, player, context)
            }
            Reader::Gm => crate::report::gm_history(data, &state, events, context),
        }
    }

    fn seats(&self) -> Option<&dyn Seats> {
        Some(self)
    }

    fn rounds(&self) -> Option<&dyn RoundsByMail> {
        Some(self)
    }

    fn pages(&self) -> Option<&dyn PublicPages> {
        Some(self)
    }
}

impl SetupByMail for MagicRealm {
    fn setup(
        &self,
        progress: Option<serde_json::Value>,
        table: &realmgm_core::game::SetupTable<'_>,
    ) -> anyhow::Result<Box<dyn MailSetup>> {
        // Choosing a second game's character and its start by mail is not
        // built (3.1 10.E.7.4.2): the refusal says how to seat him instead.
        if let Some(refused) = setup::combined_realms_refusal(table.rules, true) {
            return Err(refused.into());
        }
        let setup = setup::mail::MailedSetup::begin(progress, table, data::get()?)?;
        Ok(Box::new(setup))
    }
}

impl Seats for MagicRealm {
    /// A seat without a character in the game joins with the character it
    /// names, which enters at the Inn at the next Birdsong
    /// (`day::restart::admit_arrivals`); a seat that names none yet waits.
    /// A character whose seat is gone leaves the Realm at the next Birdsong
    /// (`day::rulings`).
    fn admit(
        &self,
        state: &GameState,
        _rules: &Rules,
        seats: &[Seat],
    ) -> anyhow::Result<GameState> {
        let shared = read_state(state)?;
        let data = data_of(&shared)?;
        // Copied only when a seat changes something: the daemon asks this
        // on every orders mail, and nearly always nothing changes.
        let mut mr = Cow::Borrowed(&*shared);
        let in_play = |mr: &MrState, player: &str| {
            mr.characters.iter().any(|c| c.played_by() == player)
                || mr.arrivals.iter().any(|a| a.player == player)
        };
        // A character whose seat is gone leaves the Realm at the next
        // Birdsong (`gm remove-player`).
        let departed: Vec<String> = mr
            .characters
            .iter()
            .filter(|c| !seats.iter().any(|s| s.player == c.played_by()))
            .filter(|c| !mr.leaving(&c.name))
            .map(|c| c.name.clone())
            .collect();
        for character in departed {
            mr.to_mut().rulings.push(QueuedRuling {
                ruling: Ruling::Retire { character },
                why: "the player has left the campaign".to_string(),
            });
        }
        for seat in seats {
            if in_play(&mr, &seat.player) {
                continue;
            }
            // A player still choosing (by mail, `Character: NAME`) waits
            // outside the game; nobody waits for him.
            let Some(wanted) = seat.role.as_deref() else {
                continue;
            };
            let taken: Vec<&str> = mr.characters_in_play().collect();
            let unpicked = mr.unplayed_characters(data).join(", ");
            let names = data.characters.iter().map(|c| c.name.as_str());
            // A character of the second game (`Amazon II`) when two Realms
            // are combined (3.1 10.E.7.4.2).
            let realm = Realm::of_name(wanted);
            let found = realmgm_core::suggest::find(&realms::printed(wanted), names.clone());
            let Some(character) = found else {
                anyhow::bail!(
                    "there is no character '{wanted}'{}; unpicked are {unpicked}",
                    realmgm_core::suggest::did_you_mean(wanted, names)
                );
            };
            if taken.contains(&character) {
                anyhow::bail!("the {character} is already in the game; unpicked are {unpicked}");
            }
            if !realm.is_first() && !mr.combines_realms() {
                Err(setup::SetupError::SecondRealmAlone {
                    role: wanted.to_string(),
                    character: character.to_string(),
                })?;
            }
            let character = character.to_string();
            mr.to_mut().arrivals.push(crate::state::Arrival {
                player: seat.player.clone(),
                character,
                spells: Vec::new(),
                realm,
            });
        }
        Ok(match mr {
            Cow::Owned(mr) => GameState::from_typed(mr),
            Cow::Borrowed(_) => state.clone(),
        })
    }

    fn late_starting_info_request(&self, state: &GameState, player: &str) -> Option<String> {
        let mr = read_state(state).ok()?;
        orders::starting_info::request(data_of(&mr).ok()?, &mr, player)
    }

    fn late_starting_info(
        &self,
        state: &GameState,
        player: &str,
        text: &str,
    ) -> Option<Result<String, StartingInfoRefused>> {
        let mr = read_state(state).ok()?;
        orders::starting_info::ruling(data_of(&mr).ok()?, &mr, player, text)
    }

    fn plays(&self, state: &GameState, player: &str) -> bool {
        self.role_of(state, player).is_some()
    }

    fn role_of(&self, state: &GameState, player: &str) -> Option<String> {
        let mr = read_state(state).ok()?;
        // A player of several characters (3.1 10.E.4) is named by his first.
        mr.characters_of(player).next().map(|c| c.name.clone())
    }

    fn unplayed(&self, state: &GameState) -> Vec<String> {
        let Ok(mr) = read_state(state) else {
            return Vec::new();
        };
        data_of(&mr).map_or_else(|_| Vec::new(), |data| mr.unplayed_characters(data))
    }
}

impl RoundsByMail for MagicRealm {
    /// A `Combat:` line answering the round ([`crate::round_prompts`]).
    fn read_answer(
        &self,
        waiting: &GameValue,
        answers: &GameValue,
        player: &str,
        text: &str,
    ) -> Result<GameValue, Vec<OrdersProblem>> {
        let broken = |what: String| {
            vec![OrdersProblem {
                line: 1,
                column: 1,
                message: format!("the stored combat round cannot be read ({what}); tell the GM"),
            }]
        };
        let waiting = waiting
            .typed(|json| Vec::<combat::Decision>::deserialize(json))
            .map_err(|e| broken(e.to_string()))?;
        let answers = round_answers(Some(answers)).map_err(|e| broken(e.to_string()))?;
        let data = data::get().map_err(broken_data)?;
        let answers = crate::round_prompts::read_answer(&waiting, &answers, player, text, data)?;
        Ok(GameValue::from_typed(answers))
    }
}

impl PublicPages for MagicRealm {
    /// The public day page ([`crate::report::site`]).
    fn site_day(
        &self,
        state: &GameState,
        previous: Option<&GameState>,
        events: &[Event],
        disclosure: realmgm_core::page::Disclosure,
    ) -> anyhow::Result<realmgm_core::page::SiteDay> {
        let previous = previous.map(read_state).transpose()?;
        let state = read_state(state)?;
        crate::report::site::site_day(
            data_of(&state)?,
            &state,
            previous.as_deref(),
            events,
            disclosure,
        )
    }

    fn map_svg(&self, state: &GameState) -> anyhow::Result<String> {
        Ok(crate::board::svg::render(&read_state(state)?.board))
    }
}

/// The names `day`'s lines give, checked against the game and, once it is
/// set up, against `player`'s character: the problems (by their line in
/// `text`, down the mail) and the warnings.
/// A new game with what the players chose during a setup by mail.
fn with_setup(
    data: &GameData,
    start: &Start<'_>,
    chosen: &dyn MailSetup,
    carried: BTreeMap<String, crate::state::development::Carried>,
    dice: &mut Dice,
) -> anyhow::Result<MrState> {
    let chosen = &(chosen as &dyn std::any::Any)
        .downcast_ref::<setup::mail::MailedSetup>()
        .ok_or_else(|| anyhow!("this setup by mail is not a Magic Realm one"))?
        .record;
    let inputs = SetupInputs {
        starts: chosen.starts(),
        board: chosen.board(),
        visitors: chosen.visitor_boxes(),
        victory_requirements: chosen.victory_requirements(),
        spells: chosen.spells(),
        equipment: chosen.equipment_groups(),
        abilities: chosen.abilities(),
        forms: chosen.forms(),
        levels: chosen.levels(),
        carried,
    };
    let mut state = setup::new_game(data, start.seats, start.rules, &inputs, dice)?;
    // BIMR3 starting info: MAGIC chits that start enchanted.
    for (character, chits) in chosen.enchanted() {
        let Some(who) = state.characters.iter().position(|c| c.name == character) else {
            continue;
        };
        for chit in chits {
            crate::magic::enchant::enchant_chit(&mut state, who, Some(&chit))
                .map_err(|e| anyhow!("the {character} cannot start with {chit} enchanted: {e}"))?;
        }
    }
    Ok(state)
}

/// The game's length (28 days a month) and victory points; the
/// requirements recorded at setup must add up to those points; with
/// `seasons_and_weather` on, the season of the first month and the
/// secret weather chit ([`day::weather::start`]).
///
/// # Errors
/// Recorded requirements that do not add up, or a season the data lack.
pub(crate) fn start_calendar(
    mr: &mut MrState,
    rules: &Rules,
    calendar: CalendarStart<'_>,
    dice: &mut Dice,
) -> anyhow::Result<()> {
    mr.last_day = calendar.months * crate::state::DAYS_PER_MONTH;
    mr.victory_points = calendar.victory_points;
    if rules.is_on(crate::development::WITHOUT_REQUIREMENTS)
        && let Some(character) = mr.victory_requirements.keys().next()
    {
        bail!(
            "the {character} recorded victory requirements, but this campaign plays Extended \
             Development without them (3.1 10.E.6.10); record none"
        );
    }
    for (character, r) in &mr.victory_requirements {
        let total = r.total();
        // Under Multiple Characters each further character of a player
        // records one point more (3.1 10.E.4.3); under Development a
        // character below 4th level records fewer (3.1 10.E.5.3). The two
        // add up, as 3.1 10.E's preamble says.
        let asked = mr.victory_points_for(character);
        let asked = mr
            .characters
            .iter()
            .find(|c| &c.name == character)
            .map_or(asked, |c| crate::development::victory_points_of(c, asked));
        if total != asked {
            bail!(
                "the {character} recorded {total} victory points, but this campaign asks \
                 {asked} ([calendar] victory_points, or its seasons, one more for each \
                 character his player took before him, less a point a level below 4th \
                 under development)"
            );
        }
    }
    if let Some(season) = calendar
        .season
        .filter(|_| rules.is_on(rules::SEASONS_TOGGLE))
    {
        day::weather::start(mr, season, dice).map_err(|e| anyhow!("{e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new game of these (player, character) seats, seed 7.
    fn new_game(seats: &[(&str, &str)]) -> GameState {
        let seats: Vec<Seat> = seats
            .iter()
            .map(|(player, character)| Seat {
                player: (*player).into(),
                role: Some((*character).into()),
            })
            .collect();
        MagicRealm
            .start(&Start::new(&seats, &Rules::default()), &mut Dice::new(7, 0))
            .unwrap()
    }

    /// The campaign file's `[carry_over.development]` starts each
    /// character at his stage under Extended Development, a 5th-stage one
    /// with his 15 gold (3.1 10.E.6.7.1), a 10th-stage one also with a
    /// Treasure card, a horse and a weapon or armour counter from the
    /// natives, 10 notoriety and 5 fame, and a bonus phase a day (3.1
    /// 10.E.6.7.2-6); an 11th-stage immortal is refused (10.E.6.7.7).
    #[test]
    fn the_carry_over_sets_each_stage_3_1_10_e_6() {
        let seats = [Seat {
            player: "Ann".into(),
            role: Some("Amazon".into()),
        }];
        let rules = Rules::new(["extended_development"], crate::rules::TOGGLES).unwrap();
        let start = |stage: u8| {
            let carried = serde_json::json!({"development": {"Amazon": {"stage": stage}}});
            let start = Start {
                carry_over: Some(&carried),
                ..Start::new(&seats, &rules)
            };
            MagicRealm.start(&start, &mut Dice::new(7, 0))
        };
        let state = start(5).unwrap();
        let amazon = &read_state(&state).unwrap().characters[0];
        assert_eq!(amazon.gold, 10 + 15);
        assert_eq!(crate::development::level(amazon), 5);
        assert_eq!(amazon.chits.len(), 12);
        let state = start(10).unwrap();
        let amazon = &read_state(&state).unwrap().characters[0];
        assert_eq!((amazon.gold, amazon.notoriety, amazon.fame), (25, 10, 5));
        let kinds: Vec<crate::state::ItemKind> =
            amazon.belongings.iter().map(|b| b.item.kind).collect();
        assert_eq!(kinds.len(), 3, "{kinds:?}");
        assert_eq!(kinds[0], crate::state::ItemKind::Treasure);
        assert_eq!(kinds[1], crate::state::ItemKind::Horse);
        assert!(matches!(
            kinds[2],
            crate::state::ItemKind::Weapon | crate::state::ItemKind::Armor
        ));
        let mr = read_state(&state).unwrap();
        let phases = crate::abilities::bonus_sources(
            data::get().unwrap(),
            &rules,
            &mr,
            false,
            amazon,
            crate::data::terms::Activity::Hide,
        );
        assert!(
            phases.contains(&"the Amazon's 9th stage".to_string()),
            "{phases:?}"
        );
        let err = start(11).unwrap_err().to_string();
        assert!(err.contains("immortal"), "{err}");
    }

    /// A 10th-stage character may record one extra spell of any type
    /// instead of taking a weapon or armour counter from the natives (3.1
    /// 10.E.6.7.6): the Amazon, who has no MAGIC chit, records Peace and
    /// takes only the Treasure card and the horse; below 10th stage, or
    /// naming no spell, the carry-over is refused.
    #[test]
    fn a_tenth_stage_character_may_record_an_extra_spell_instead_of_a_counter_3_1_10_e_6_7_6() {
        let seats = [Seat {
            player: "Ann".into(),
            role: Some("Amazon".into()),
        }];
        let rules = Rules::new(["extended_development"], crate::rules::TOGGLES).unwrap();
        let start = |carried: serde_json::Value| {
            let carried = serde_json::json!({"development": {"Amazon": carried}});
            let start = Start {
                carry_over: Some(&carried),
                ..Start::new(&seats, &rules)
            };
            MagicRealm.start(&start, &mut Dice::new(7, 0))
        };
        let state = start(serde_json::json!({"stage": 10, "extra_spell": "peace"})).unwrap();
        let amazon = &read_state(&state).unwrap().characters[0];
        assert_eq!(amazon.magic.spells, ["Peace"]);
        let kinds: Vec<crate::state::ItemKind> =
            amazon.belongings.iter().map(|b| b.item.kind).collect();
        assert_eq!(
            kinds,
            [
                crate::state::ItemKind::Treasure,
                crate::state::ItemKind::Horse
            ]
        );
        let state = start(serde_json::json!({"stage": 10})).unwrap();
        let amazon = &read_state(&state).unwrap().characters[0];
        assert!(amazon.magic.spells.is_empty());
        assert_eq!(amazon.belongings.len(), 3);
        let err = start(serde_json::json!({"stage": 9, "extra_spell": "Peace"}))
            .unwrap_err()
            .to_string();
        assert!(err.contains("only a 10th-stage character"), "{err}");
        let err = start(serde_json::json!({"stage": 10, "extra_spell": "Pease and Quiet"}))
            .unwrap_err()
            .to_string();
        assert!(err.contains("the extra spell 'Pease and Quiet'"), "{err}");
    }

    #[test]
    fn a_new_game_awaits_every_player_and_draws_its_map() {
        let state = new_game(&[("Ann", "Amazon"), ("Ben", "Wizard")]);
        assert_eq!(
            MagicRealm.awaiting(&state).unwrap(),
            vec!["Ann".to_string(), "Ben".to_string()]
        );
        let svg = MagicRealm.map_svg(&state).unwrap();
        assert_eq!(svg.matches("<polygon").count(), 20);
        let err = MagicRealm
            .awaiting(&GameState::new(serde_json::json!({"hand": []})))
            .unwrap_err();
        assert!(
            err.to_string().contains("not a Magic Realm game state"),
            "{err}"
        );
    }

    #[test]
    fn repeated_orders_do_not_give_twice() {
        let state = new_game(&[("Ann", "Amazon"), ("Ben", "Elf")]);
        let text = "R\nBlock: everyone\nGive: 10 gold to Elf\nMidnight: abandon Spear";
        let accepted = MagicRealm
            .read_orders(&state, &Rules::default(), "Ann", text)
            .unwrap();
        let again = MagicRealm.repeated_orders(accepted);
        assert!(
            again.canonical.contains("Block: everyone"),
            "{}",
            again.canonical
        );
        assert!(!again.canonical.contains("Give:") && !again.canonical.contains("Midnight:"));
        let day = read_day_orders(&again).unwrap();
        assert!(day.deals.is_empty() && day.rearrange.is_empty());
    }

    /// A restarted character's `Victory:` line must record the game's
    /// victory points, as at setup (3.1 9.1.2a, 3.3.6).
    #[test]
    fn a_victory_line_must_add_up_to_the_games_points_3_1_9_1_2a() {
        let state = new_game(&[("Ann", "Amazon")]);
        let rules = Rules::default();
        let read = |text: &str| MagicRealm.read_orders(&state, &rules, "Ann", text);
        assert!(read("H\nVictory: GT 1, SP 1, F 1, N 1, G 1").is_ok());
        let problems = read("H\nVictory: GT 1, F 2, G 1").unwrap_err();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].line, 2);
        assert_eq!(
            problems[0].message,
            "Victory: the points add up to 4; they must add up to 5"
        );
    }

    #[test]
    fn orders_are_checked_by_name_against_the_game_and_the_characters() {
        let seats = [Seat {
            player: "Ann".into(),
            role: Some("Amazon".into()),
        }];
        let state = MagicRealm
            .start(&Start::new(&seats, &Rules::default()), &mut Dice::new(7, 0))
            .unwrap();
        let rules = Rules::default();
        let problems = MagicRealm
            .read_orders(&state, &rules, "Ann", "M CV4, H\nBuy: Shieeld\nBlock: Elf")
            .unwrap_err();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].line, 2);
        assert!(
            problems[0].message.contains("'Shieeld' is not an item"),
            "{problems:?}"
        );
        let problems = MagicRealm
            .read_orders(
                &state,
                &rules,
                "Ann",
                "M CV4, H\nCombat: target weakst\nBuy: Shieeld",
            )
            .unwrap_err();
        let lines: Vec<usize> = problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [2, 3], "{problems:?}");
        // A line that does not read does not keep the others from their
        // checks by name: both mistakes are told at once.
        let problems = MagicRealm
            .read_orders(
                &state,
                &rules,
                "Ann",
                "M CV4, H\nSerch: locate\nBuy: Shieeld",
            )
            .unwrap_err();
        let lines: Vec<usize> = problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [2, 3], "{problems:?}");
        assert!(
            problems[1].message.contains("'Shieeld' is not an item"),
            "{problems:?}"
        );
        let accepted = MagicRealm
            .read_orders(&state, &rules, "Ann", "M CV4, H\nBlock: Elf")
            .unwrap();
        assert!(accepted.warnings[0].contains("no character named 'Elf'"));
        // The dry run of her moves may add one warning, for the move itself.
        assert!(
            accepted.warnings[1..]
                .iter()
                .all(|w| w.starts_with("phase 1 (M CV4)")),
            "{:?}",
            accepted.warnings
        );
        let before_setup = GameState::new(serde_json::Value::Null);
        let accepted = MagicRealm
            .read_orders(&before_setup, &rules, "Ann", "M CV4, H\nBlock: Elf")
            .unwrap();
        assert!(accepted.warnings.is_empty(), "nobody plays yet");
    }

    #[test]
    fn new_game_sets_up_the_seats_and_hashes_the_same_twice() {
        let seats = [Seat {
            player: "ann".into(),
            role: Some("Dwarf".into()),
        }];
        let start = || {
            MagicRealm
                .start(&Start::new(&seats, &Rules::default()), &mut Dice::new(9, 0))
                .unwrap()
        };
        let state = start();
        assert_eq!(state.json()["characters"][0]["name"], "Dwarf");
        assert_eq!(state.json()["day"], 0);
        assert_eq!(state.hash(), start().hash());
    }

    #[test]
    fn a_player_built_board_cannot_start_without_placements() {
        let rules = Rules::new(["player_built_board"], rules::TOGGLES).unwrap();
        let err = MagicRealm
            .start(&Start::new(&[], &rules), &mut Dice::new(1, 0))
            .unwrap_err();
        assert!(err.to_string().contains("player_built_board"), "{err}");
    }

    #[test]
    fn orders_are_read_into_their_canonical_form_and_errors_keep_their_place() {
        let state = GameState::new(serde_json::Value::Null);
        let accepted = MagicRealm
            .read_orders(
                &state,
                &Rules::default(),
                "Ann",
                "M CV4, H\nBlock: everyone",
            )
            .unwrap();
        assert!(
            accepted
                .canonical
                .starts_with("Activities: M-Curst Valley 4 / H\n"),
            "{}",
            accepted.canonical
        );
        assert_eq!(accepted.parsed.json()["block"], "everyone");
        let problems = MagicRealm
            .read_orders(&state, &Rules::default(), "Ann", "H\nBuy: x up to y")
            .unwrap_err();
        assert_eq!(problems[0].line, 2);
    }

    #[test]
    fn a_missing_player_hides_in_every_phase() {
        let state = GameState::new(serde_json::Value::Null);
        let orders = MagicRealm
            .missing_orders(&state, &Rules::default(), "Ann")
            .unwrap();
        assert!(
            orders.canonical.starts_with(&format!(
                "Activities: H / H / H / H ({})",
                day::daylight::NO_ORDERS_REMARK
            )),
            "{}",
            orders.canonical
        );
    }

    #[test]
    fn a_day_is_resolved_from_the_stored_orders() {
        let seats = [Seat {
            player: "Ann".into(),
            role: Some("Amazon".into()),
        }];
        let rules = Rules::default();
        let state = MagicRealm
            .start(&Start::new(&seats, &rules), &mut Dice::new(5, 0))
            .unwrap();
        let orders: BTreeMap<String, AcceptedOrders> = [(
            "Ann".to_string(),
            MagicRealm.missing_orders(&state, &rules, "Ann").unwrap(),
        )]
        .into();
        let turn = MagicRealm
            .resolve_turn(
                state.clone(),
                &Turn::new(&rules, &orders),
                &mut Dice::new(5, 1),
            )
            .unwrap()
            .done()
            .expect("the turn is resolved to its end");
        assert_eq!(turn.state.json()["day"], 1);
        assert!(!turn.finished);
        assert!(
            turn.events
                .iter()
                .any(|e| e.body.json()["part"] == "phase"
                    && e.body.json()["event"] == "phase_done"),
            "{:?}",
            turn.events
        );
        let broken: BTreeMap<String, AcceptedOrders> = [(
            "Ann".to_string(),
            AcceptedOrders {
                canonical: String::new(),
                parsed: GameValue::new(serde_json::json!({"hand": 1})),
                warnings: Vec::new(),
            },
        )]
        .into();
        let err = MagicRealm
            .resolve_turn(
                state.clone(),
                &Turn::new(&rules, &broken),
                &mut Dice::new(5, 1),
            )
            .unwrap_err();
        assert!(err.to_string().contains("orders of Ann"), "{err}");
    }

    #[test]
    fn seasons_need_the_seasons_toggle_which_exists() {
        let calendar = MagicRealm.calendar().unwrap();
        assert!(
            MagicRealm
                .toggles()
                .iter()
                .any(|t| t.name == calendar.seasons_toggle)
        );
        assert_eq!(calendar.seasons.len(), 13);
    }
}
