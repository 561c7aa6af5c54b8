//! Running a campaign's game through the store: the plumbing between a
//! stored campaign and its game engine.
//!
//! Starting a game rolls the setup on day 0's dice and keeps it as the day-0
//! snapshot, so every later day starts from a stored, hashed state. Engines
//! stay pure; this module does the storing.

use anyhow::Context;

use crate::campaign::Campaign;
use crate::dice::Dice;
use crate::game::GameState;
use crate::store::Store;

/// Set the game up from the campaign's seed and store it as day 0; a game
/// already started is returned as stored, so starting twice is harmless.
///
/// # Errors
/// The game refuses the setup (worded for the GM), or the store fails.
pub fn start_game(store: &mut Store, campaign: &Campaign, now: i64) -> anyhow::Result<GameState> {
    if let Some(day0) = store.load_day(&campaign.name, 0)? {
        return Ok(day0.state);
    }
    let game = campaign.game()?;
    let mut dice = Dice::new(campaign.seed, 0);
    let state = game
        .new_game(&campaign.seats(), &campaign.rules, &mut dice)
        .with_context(|| format!("cannot set up the game of {}", campaign.name))?;
    store.save_day(&campaign.name, 0, &state, now)?;
    Ok(state)
}
