//! A late joiner's starting info, in a campaign whose players recorded
//! theirs at setup: what he is asked before his character enters the
//! Realm, and the `starting` ruling his answer by mail becomes (carried out
//! as the day he enters begins, just before he enters: `day::rulings`).

use crate::data::GameData;
use crate::setup::by_mail::{key_lines, spells_asked};
use crate::state::MrState;
use crate::state::ruling::Ruling;
use realmgm_core::game::StartingInfoRefused;

use super::ruling::parse_ruling;

/// The character `player` is about to enter the Realm with, when the
/// campaign records starting info and his has not been given.
fn owed_by(state: &MrState, player: &str) -> Option<String> {
    // Players who recorded no requirements at setup ask none of a newcomer.
    if state.victory_requirements.is_empty() {
        return None;
    }
    let arrival = state.arrivals.iter().find(|a| a.player == player)?;
    let given = state.rulings.iter().any(|queued| {
        matches!(&queued.ruling, Ruling::StartingInfo { character, .. }
            if *character == arrival.character)
    });
    let recorded = state.victory_requirements.contains_key(&arrival.character);
    (!given && !recorded).then(|| arrival.character.clone())
}

/// What `player` is asked for before his character enters (one line each,
/// as at setup); `None` when nothing is owed.
pub fn request(data: &GameData, state: &MrState, player: &str) -> Option<String> {
    let character = owed_by(state, player)?;
    let card = data.characters.iter().find(|c| c.name == character)?;
    let spells = spells_asked(card)
        .map(|line| format!("\n  {line}"))
        .unwrap_or_default();
    Some(format!(
        "The players of this campaign recorded their victory requirements at setup, secret from \
         each other; joining part way, yours count the weeks left (3.1 10.E.2.5). Record yours \
         before the {character} enters the Realm: answer with one line each (and your \
         `Password:` line):\n  Victory: GT 1, SP 0, F 2, N 1, G 1   ({} points in all){spells}",
        state.joiner_victory_points()
    ))
}

/// The `starting` ruling that the `Victory:` and `Spells:` lines of
/// `player`'s mail make, checked against `state`; the problem, worded for
/// him, when they do not read. `None` when nothing is owed or the mail has
/// no `Victory:` line (it is something else: his orders).
pub fn ruling(
    data: &GameData,
    state: &MrState,
    player: &str,
    text: &str,
) -> Option<Result<String, StartingInfoRefused>> {
    let character = owed_by(state, player)?;
    let lines = key_lines(text);
    let victory = lines.get("victory")?;
    let spells = lines
        .get("spells")
        .map(|s| format!(" spells {s}"))
        .unwrap_or_default();
    let ruling = format!("starting {character} victory {victory}{spells}");
    Some(
        parse_ruling(&ruling, data, state)
            .map(|_| ruling)
            .map_err(|e| StartingInfoRefused(e.to_string())),
    )
}
