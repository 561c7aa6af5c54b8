//! The orders form at the end of a player's report: tomorrow's
//! orders, pre-filled with his standing instructions from his last accepted
//! orders (not that day's deals, rearrangements or hired leaders' phases),
//! ready to fill in and send back as a reply. The form always
//! parses with the orders parser as it stands (its activities line holds
//! the safe default, hiding in every phase). A `Combat:` line keeps only
//! what can still apply: nothing aimed at the dead, at hirelings no longer
//! his, or, after his own death, at anyone or anything of his old life.

use serde::Serialize;

use crate::abilities;
use crate::combat::tactics::{Lure, Tactics, Target};
use crate::data::GameData;
use crate::data::characters::Advantage;
use crate::data::terms::Activity;
use crate::data::treasures::TreasureEffect;
use crate::day::daylight::normal_phases;
use crate::orders::{DayOrders, parse_day_orders};
use crate::state::{CharacterState, MrState, Whereabouts};
use realmgm_core::game::Rules;

/// What the orders form template is filled with.
#[derive(Clone, Debug, Serialize)]
pub struct OrdersForm {
    /// The line that heads his orders when his player plays several
    /// characters (`Orders for: Amazon`; 3.1 10.E.4.4); none otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heading: Option<String>,
    pub character: String,
    pub day: u32,
    /// The activities line's pre-filled value.
    pub activities: String,
    /// The standing instruction lines (`Search: ...`, `Block: ...`).
    pub standing: Vec<String>,
    /// What was taken out of his `Combat:` line, each with why.
    pub dropped: Vec<String>,
    /// The phases he may add to the ones asked for, each with its source:
    /// the form asks only for the day's normal phases.
    pub bonus: Vec<BonusPhase>,
}

/// One bonus phase the form tells of.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BonusPhase {
    /// What gives it: "the Amazon's advantage gives one more Move phase a day".
    pub source: String,
    /// Starred activities it allows, as he would write them: `M CV2*`.
    pub starred: &'static str,
}

/// The form for `character`'s orders of `day`, from his last accepted
/// orders (canonical text) when there are any. Orders that no longer parse
/// (the data changed) fall back to the defaults. The activities line has
/// one Hide for each phase he has as things stand (`daylight::normal_phases`).
pub fn orders_form(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    character: &CharacterState,
    day: u32,
    last_orders: Option<&str>,
) -> OrdersForm {
    let mut standing = last_orders
        .and_then(|text| parse_day_orders(text, 1, data).ok())
        .unwrap_or_default();
    standing.for_another_day();
    let mut dropped = standing
        .combat
        .as_mut()
        .map(|tactics| drop_what_cannot_apply(state, character, tactics))
        .unwrap_or_default();
    if character.dead {
        dropped.extend(forget_his_old_life(&mut standing));
    }
    let text = standing.to_string();
    OrdersForm {
        character: character.name.clone(),
        day,
        heading: None,
        activities: vec!["H"; normal_phases(data, rules, state, character)].join(" / "),
        standing: text.lines().skip(1).map(str::to_string).collect(),
        dropped,
        bonus: bonus_phases(data, rules, character),
    }
}

/// The bonus phases a character's advantages and active treasures give
/// him (each written starred, once a day), so that the form tells him of
/// them: a phase recorded past the normal ones without its star is lost.
fn bonus_phases(data: &GameData, rules: &Rules, me: &CharacterState) -> Vec<BonusPhase> {
    let phase = |activity: Activity| match activity {
        Activity::Any => "one more phase of any kind".to_string(),
        other => format!("one more {} phase", other.word()),
    };
    let mut lines = Vec::new();
    for advantage in abilities::advantages(data, rules, me) {
        match advantage {
            Advantage::ExtraPhase { activity } => lines.push(BonusPhase {
                source: format!(
                    "the {}'s advantage gives {} a day",
                    me.name,
                    phase(activity)
                ),
                starred: starred_example(activity),
            }),
            Advantage::ExtraPhaseAtDwelling => lines.push(BonusPhase {
                source: format!(
                    "the {}'s advantage gives one more phase a day at a dwelling",
                    me.name
                ),
                starred: starred_example(Activity::Any),
            }),
            _ => {}
        }
    }
    for (treasure, effect) in abilities::active_treasure_effects(data, me) {
        if let TreasureEffect::ExtraPhase { activity, .. } = effect {
            lines.push(BonusPhase {
                source: format!(
                    "the active {treasure} gives {} a day where it works",
                    phase(*activity)
                ),
                starred: starred_example(*activity),
            });
        }
    }
    lines
}

/// Starred activities a bonus phase of `activity` allows, as examples for
/// the form: an example the bonus does not allow would be lost on the day.
fn starred_example(activity: Activity) -> &'static str {
    match activity {
        Activity::Any => "H*, M CV2*",
        Activity::Move => "M CV2*",
        Activity::Hide => "H*",
        Activity::Alert => "A*",
        Activity::Rest => "R*",
        Activity::Search | Activity::Peer => "S*",
        Activity::Trade => "T*",
        Activity::Hire => "HR*",
        Activity::Spell => "SP*",
        Activity::Follow => "F Amazon*",
    }
}

/// A dead character starts again at the Inn with his starting gold and
/// nothing else (`day/restart.rs`): what he meant to sell, whom he meant to
/// hire and where his hirelings were to go are of his old life. The lines
/// taken out, each with why.
fn forget_his_old_life(standing: &mut DayOrders) -> Vec<String> {
    let before = standing.to_string();
    standing.sell.clear();
    standing.hire.clear();
    standing.leave.clear();
    standing.send.clear();
    let after = standing.to_string();
    before
        .lines()
        .filter(|line| !after.lines().any(|kept| kept == *line))
        .map(|line| format!("{line} (you were killed)"))
        .collect()
}

/// Take out of `tactics` what can no longer apply, and say what and why. A
/// dead character starts again at the Inn with no hirelings and nothing
/// he carried (`day/restart.rs`): whom he fought and what he held are of
/// his old life, and the one who killed him most of all.
fn drop_what_cannot_apply(
    state: &MrState,
    me: &CharacterState,
    tactics: &mut Tactics,
) -> Vec<String> {
    let gone = |name: &str| -> Option<&'static str> {
        if me.dead {
            return Some("you were killed");
        }
        let denizen = state
            .denizens
            .iter()
            .find(|(id, _)| id.eq_ignore_ascii_case(name));
        match denizen {
            Some((_, d)) if d.at == Whereabouts::Dead => Some("killed"),
            Some(_) => None,
            None if state.characters.iter().any(|c| {
                c.name.eq_ignore_ascii_case(name)
                    || format!("the {}", c.name).eq_ignore_ascii_case(name)
            }) =>
            {
                None
            }
            None => Some("not in the game"),
        }
    };
    let not_his = |native: &str| -> Option<&'static str> {
        if me.dead {
            Some("you were killed; your hirelings are free")
        } else if me
            .hirelings
            .iter()
            .any(|h| h.native.eq_ignore_ascii_case(native))
        {
            None
        } else {
            Some("no longer your hireling")
        }
    };
    let mut dropped = Vec::new();
    let mut note = |what: String, why: &str| dropped.push(format!("Combat: {what} ({why})"));
    if let Target::Named(name) = &tactics.target
        && let Some(why) = gone(name)
    {
        note(format!("target {name}"), why);
        tactics.target = Target::default();
    }
    if let Some(name) = tactics.charge.take_if(|name| gone(name).is_some()) {
        let why = gone(&name).unwrap_or_default();
        note(format!("charge {name}"), why);
    }
    if let Lure::Named(names) = &mut tactics.lure {
        names.retain(|name| match gone(name) {
            Some(why) => {
                note(format!("lure {name}"), why);
                false
            }
            None => true,
        });
        if names.is_empty() {
            tactics.lure = Lure::default();
        }
    }
    let mut hired = |pairs: &mut Vec<(String, String)>, said: fn(&str, &str) -> String| {
        pairs.retain(
            |(native, target)| match not_his(native).or_else(|| gone(target)) {
                Some(why) => {
                    note(said(native, target), why);
                    false
                }
                None => true,
            },
        );
    };
    hired(&mut tactics.hireling_lures, |native, target| {
        format!("{native} lure {target}")
    });
    hired(&mut tactics.hireling_deploys, |native, target| {
        format!("deploy {native} against {target}")
    });
    if me.dead {
        let held = [
            (
                if tactics.drops { "drop" } else { "abandon" },
                tactics.abandon.take(),
            ),
            ("activate", tactics.activate.take()),
            ("inactivate", tactics.inactivate.take()),
        ];
        for (verb, item) in held {
            if let Some(item) = item {
                note(
                    format!("{verb} {item}"),
                    "you were killed; all you carried is lost to you",
                );
            }
        }
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{data, game_played_by};

    #[test]
    fn the_form_tells_of_the_bonus_phases_an_advantage_gives() {
        let state = game_played_by(&["Amazon", "Black Knight"], |i| format!("P{i}"));
        let form = |who: usize| {
            orders_form(
                data(),
                &Rules::default(),
                &state,
                &state.characters[who],
                2,
                None,
            )
        };
        assert_eq!(
            form(0).bonus,
            [BonusPhase {
                source: "the Amazon's advantage gives one more Move phase a day".into(),
                starred: "M CV2*",
            }]
        );
        assert!(form(1).bonus.is_empty(), "{:?}", form(1).bonus);
    }

    #[test]
    fn the_form_keeps_standing_lines_and_drops_the_days_dealings() {
        let state = game_played_by(&["Captain"], |_| "Ann".into());
        let last = "M CV4\nBlock: everyone\nLeave: Soldier 2\nSend: Soldier 1 with Soldier HQ\n\
                    Soldier HQ: M CV5\nGive: Spear to Elf\nPhase 2: activate Spear";
        let form = orders_form(
            data(),
            &Rules::default(),
            &state,
            &state.characters[0],
            2,
            Some(last),
        );
        let lines = form.standing.join("\n");
        assert!(
            lines.contains("Block: everyone") && lines.contains("Leave: Soldier 2"),
            "{lines}"
        );
        assert!(lines.contains("Send: Soldier 1 with Soldier HQ"), "{lines}");
        for gone in ["Soldier HQ:", "Give:", "Phase 2:"] {
            assert!(!lines.contains(gone), "{gone} in {lines}");
        }
    }

    #[test]
    fn a_combat_line_loses_the_dead_and_the_hirelings_no_longer_his() {
        let mut state = game_played_by(&["Captain"], |_| "Ann".into());
        state.denizens.get_mut("Rogue 3").expect("a Rogue").at = Whereabouts::Dead;
        let last = "H\nCombat: target Rogue 3, deploy Soldier 1 against Rogue 2, \
                    lure Rogue 3 and Rogue 4, run when wounded 1";
        let form = orders_form(
            data(),
            &Rules::default(),
            &state,
            &state.characters[0],
            2,
            Some(last),
        );
        assert_eq!(
            form.dropped,
            [
                "Combat: target Rogue 3 (killed)",
                "Combat: lure Rogue 3 (killed)",
                "Combat: deploy Soldier 1 against Rogue 2 (no longer your hireling)",
            ]
        );
        let combat = form
            .standing
            .iter()
            .find(|l| l.starts_with("Combat:"))
            .expect("the Combat: line");
        assert_eq!(
            combat,
            "Combat: target own, run when wounded 1, lure Rogue 4"
        );
    }
}
