//! The combat round a day waits for (round-by-round combat by mail): what
//! the game waits for, whom it asked, who answered, the answers so far and
//! the round deadline. One row per campaign and day, replaced at each new
//! stop and deleted by a rollback.

use std::ops::{Deref, DerefMut};

use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::{Store, StoreError};
use crate::game::GameValue;

/// A day stopped at a combat round.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CombatRound {
    /// The game's record of the decisions waited for.
    pub waiting: GameValue,
    pub asked: Vec<String>,
    pub answered: Vec<String>,
    /// The game's record of every answer of the day so far.
    pub answers: GameValue,
    pub deadline: i64,
}

impl CombatRound {
    /// Every asked player answered.
    pub fn complete(&self) -> bool {
        self.asked.iter().all(|p| self.answered.contains(p))
    }
}

/// The combat rounds the campaigns' days wait for.
///
/// Borrowed from the store by [`Store::rounds`] to read and [`Store::rounds_mut`]
/// to change.
pub struct Rounds<S> {
    pub(super) store: S,
}

impl<S: Deref<Target = Store>> Rounds<S> {
    /// The combat round `campaign`'s day `day` waits for, if any.
    ///
    /// # Errors
    /// No such campaign, or the stored JSON cannot be read.
    pub fn get(&self, campaign: &str, day: u32) -> Result<Option<CombatRound>, StoreError> {
        let id = self.store.campaign_id(campaign)?;
        let row: Option<(String, String, String, String, i64)> = self
            .store
            .conn
            .query_row(
                "SELECT waiting_json, asked_json, answered_json, answers_json, deadline \
                 FROM combat_rounds WHERE campaign_id = ?1 AND day = ?2",
                params![id, day],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )
            .optional()?;
        let Some((waiting, asked, answered, answers, deadline)) = row else {
            return Ok(None);
        };
        let corrupt = |e: serde_json::Error| StoreError::Corrupt {
            campaign: campaign.to_string(),
            message: format!("combat round of day {day}: {e}"),
        };
        Ok(Some(CombatRound {
            waiting: GameValue::from_canonical_text(&waiting).map_err(corrupt)?,
            asked: serde_json::from_str(&asked).map_err(corrupt)?,
            answered: serde_json::from_str(&answered).map_err(corrupt)?,
            answers: GameValue::from_canonical_text(&answers).map_err(corrupt)?,
            deadline,
        }))
    }
}

impl<S: DerefMut<Target = Store>> Rounds<S> {
    /// Keep the combat round day `day` waits for, replacing the last one.
    ///
    /// # Errors
    /// No such campaign, or the database fails.
    pub fn save(
        &mut self,
        campaign: &str,
        day: u32,
        round: &CombatRound,
    ) -> Result<(), StoreError> {
        let id = self.store.campaign_id(campaign)?;
        let list = |l: &[String]| serde_json::Value::from(l.to_vec()).to_string();
        self.store.conn.execute(
            "INSERT INTO combat_rounds (campaign_id, day, waiting_json, asked_json, \
             answered_json, answers_json, deadline) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
             ON CONFLICT (campaign_id, day) DO UPDATE SET waiting_json = excluded.waiting_json, \
             asked_json = excluded.asked_json, answered_json = excluded.answered_json, \
             answers_json = excluded.answers_json, deadline = excluded.deadline",
            params![
                id,
                day,
                round.waiting.canonical_text(),
                list(&round.asked),
                list(&round.answered),
                round.answers.canonical_text(),
                round.deadline
            ],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::Campaign;

    const BIMR3: &str = include_str!("../../../../campaigns/bimr3.toml");

    #[test]
    fn a_combat_round_is_kept_replaced_and_read_back() {
        let mut store = Store::open_in_memory(crate::TEST_GAMES).unwrap();
        let campaign = Campaign::parse("bimr3.toml", BIMR3, crate::TEST_GAMES).unwrap();
        store.campaigns_mut().insert(&campaign, BIMR3, 1).unwrap();
        let name = campaign.name.clone();
        assert_eq!(store.rounds().get(&name, 1).unwrap(), None);
        let mut round = CombatRound {
            waiting: serde_json::json!([{"round": 1}]).into(),
            asked: vec!["Ann".into()],
            answered: Vec::new(),
            answers: GameValue::default(),
            deadline: 100,
        };
        store.rounds_mut().save(&name, 1, &round).unwrap();
        assert!(!store.rounds().get(&name, 1).unwrap().unwrap().complete());
        round.answered.push("Ann".into());
        store.rounds_mut().save(&name, 1, &round).unwrap();
        let back = store.rounds().get(&name, 1).unwrap().unwrap();
        assert!(back.complete());
        assert_eq!(back, round);
        store.days_mut().rollback_to(&name, 0).unwrap();
        assert_eq!(store.rounds().get(&name, 1).unwrap(), None);
    }
}
