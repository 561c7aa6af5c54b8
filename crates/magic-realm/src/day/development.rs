//! Advancing under Development (3.1 10.E.5.4): at each Midnight a
//! developing character's victory points toward his requirements are
//! counted (`victory::points_toward_requirements`: whole points, within
//! what he recorded in each category, Great Treasures and his belongings'
//! Fame and Notoriety values included). Points above the best total he
//! has reached are gains; points lost must be won back first. Each gain of
//! as many points as his level's number brings one chit of his next level,
//! the one his `Develop:` line names first among those left, else the
//! first left in the card's order; the third makes him that level, and
//! its Special Advantage comes with 2nd and 4th level (10.E.5.4.3).
//!
//! Ruling: gains are counted once a day, at Midnight, so a point won and
//! lost the same day counts nothing.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Day;
use super::events::Happening;
use super::victory;
use crate::data::GameData;
use crate::development::{ENDS_AT_VICTORY, WITHOUT_REQUIREMENTS};
use crate::orders::DayOrders;
use crate::state::CharacterState;
use crate::state::development::{CHITS_PER_LEVEL, Development, TOP_LEVEL};
use realmgm_core::game::Rules;

/// A developing character's progress, told to his player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum DevelopmentEvent {
    /// He earned a chit of his next level (3.1 10.E.5.4).
    ChitGained {
        character: String,
        chit: String,
        /// The level the chit belongs to.
        level: u8,
        /// How many of that level's three chits he now has.
        of_level: u8,
        /// His victory points toward his requirements now.
        points: i32,
    },
    /// With all three chits he reaches the level, and the advantages it
    /// brings (3.1 10.E.5.4.3).
    LevelReached {
        character: String,
        level: u8,
        advantages: Vec<String>,
    },
    /// Under Extended Development at 4th stage or above, a chit toward his
    /// next stage, kept on record only (3.1 10.E.6.6).
    ChitOnRecord {
        character: String,
        stage: u8,
        of_stage: u8,
        points: i32,
    },
    /// Under Extended Development's revival a killed character comes back
    /// as himself, three chits down, now at `stage` (3.1 10.E.6.4).
    Revived { character: String, stage: u8 },
    /// Without victory requirements, the chits each character earned this
    /// game and the victor, who earned the most (3.1 10.E.6.10).
    VictorByChits {
        earned: Vec<(String, u8)>,
        victors: Vec<String>,
    },
    /// The game ends tonight: these characters met their victory
    /// requirements and win (3.1 10.E.6.3).
    RequirementsMet { characters: Vec<String> },
    /// The game is over: each character's stage and extra chits for the
    /// next campaign file, as the GM reads them (3.1 10.E.6.3).
    CarryOver { lines: Vec<String> },
}

impl DevelopmentEvent {
    /// The line his player reads.
    pub fn log_line(&self) -> String {
        match self {
            DevelopmentEvent::ChitGained {
                character,
                chit,
                level,
                of_level,
                points,
            } => format!(
                "The {character} has {} toward the victory requirements and gains {chit}, \
                 chit {of_level} of 3 of the {} level.",
                realmgm_core::words::counted(*points, "victory point", "victory points"),
                ordinal(*level)
            ),
            DevelopmentEvent::ChitOnRecord {
                character,
                stage,
                of_stage,
                points,
            } => format!(
                "The {character} has {} toward the victory requirements and earns chit \
                 {of_stage} of 3 of the {} stage, kept on record.",
                realmgm_core::words::counted(*points, "victory point", "victory points"),
                ordinal(*stage)
            ),
            DevelopmentEvent::Revived { character, stage } => format!(
                "The {character} is revived, three chits of development lost: now at the {} \
                 stage.",
                ordinal(*stage)
            ),
            DevelopmentEvent::VictorByChits { earned, victors } => {
                let counts: Vec<String> = earned
                    .iter()
                    .map(|(character, chits)| {
                        format!(
                            "the {character} {}",
                            realmgm_core::words::counted(*chits, "chit", "chits")
                        )
                    })
                    .collect();
                let victors: Vec<String> = victors.iter().map(|v| format!("the {v}")).collect();
                let outcome = match victors.len() {
                    0 => "nobody alive earned one, so there is no victor".to_string(),
                    1 => format!("{} is the victor", victors[0]),
                    _ => format!(
                        "{} share the victory",
                        realmgm_core::words::listed(&victors)
                    ),
                };
                format!(
                    "Extended Development without victory requirements: the victor is who \
                     earned the most chits this game: {}; {outcome}.",
                    realmgm_core::words::listed(&counts)
                )
            }
            DevelopmentEvent::RequirementsMet { characters } => {
                let named: Vec<String> = characters.iter().map(|c| format!("the {c}")).collect();
                format!(
                    "Midnight: {} met every victory requirement and {}; the game ends tonight \
                     (Extended Development).",
                    realmgm_core::words::listed(&named),
                    realmgm_core::words::agreeing(named.len(), "wins", "win")
                )
            }
            DevelopmentEvent::CarryOver { lines } => format!(
                "Extended Development: the stages to carry over into the next campaign file \
                 (3.1 10.E.6.3):\n[carry_over.development]\n{}",
                lines.join("\n")
            ),
            DevelopmentEvent::LevelReached {
                character,
                level,
                advantages,
            } => {
                let gained = if advantages.is_empty() {
                    String::new()
                } else {
                    format!(
                        " and with it the Special Advantage {}",
                        realmgm_core::words::listed(advantages)
                    )
                };
                format!(
                    "The {character} reaches the {} level{gained}.",
                    ordinal(*level)
                )
            }
        }
    }
}

/// `1st`, `2nd`, `3rd`, `4th`.
pub fn ordinal(level: u8) -> String {
    let suffix = match level {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{level}{suffix}")
}

/// His level and progress as his sheet shows it.
pub fn progress(
    data: &GameData,
    rules: &Rules,
    who: &CharacterState,
    development: &Development,
) -> String {
    let level = ordinal(development.level);
    if development.level >= TOP_LEVEL {
        return format!("{level} level, fully developed");
    }
    let next = ordinal(development.level + 1);
    let left: Vec<String> = next_level_chits(data, rules, who)
        .into_iter()
        .filter(|(stage, _)| !development.gained.contains(stage))
        .map(|(_, chit)| chit)
        .collect();
    format!(
        "{level} level; {} of the 3 chits of the {next} level gained ({} left); {} banked \
         toward the next chit, which costs {}; best total toward the requirements {}",
        development.gained.len(),
        left.join(", "),
        realmgm_core::words::counted(development.banked, "victory point", "victory points"),
        development.points_per_chit(),
        development.best_points
    )
}

/// The chits of his next level, by stage, named as his abilities shape
/// them (the Wizard's Elvish Studies), whether gained or not.
fn next_level_chits(data: &GameData, rules: &Rules, who: &CharacterState) -> Vec<(u8, String)> {
    let Some(development) = &who.development else {
        return Vec::new();
    };
    let stages = development.next_stages();
    let mut all = who.clone();
    if let Some(d) = &mut all.development {
        d.gained = stages.clone();
    }
    crate::abilities::shaped_chits(data, rules, &all)
        .unwrap_or_default()
        .into_iter()
        .filter(|(stage, _)| stages.contains(stage))
        .map(|(stage, chit)| (stage, chit.chit))
        .collect()
}

/// Count each developing character's gains at Midnight and give him the
/// chits and levels they earn.
pub fn at_midnight(day: &mut Day<'_>, orders: &BTreeMap<String, DayOrders>) {
    for i in 0..day.state.characters.len() {
        let who = &day.state.characters[i];
        let Some(development) = who.development.clone() else {
            continue;
        };
        if who.dead {
            continue;
        }
        let points = if day.rules.is_on(WITHOUT_REQUIREMENTS) {
            victory::points_of_any_kind(day.data, day.rules, &day.state, who)
        } else {
            let requirements = day.state.victory_requirements.get(&who.name);
            victory::points_toward_requirements(day.data, day.rules, &day.state, who, requirements)
        };
        if points <= development.best_points {
            continue;
        }
        let wanted = orders
            .get(&who.player)
            .map(|o| o.develop.clone())
            .unwrap_or_default();
        let mut development = development;
        development.banked += points - development.best_points;
        development.best_points = points;
        day.state.characters[i].development = Some(development);
        earn(day, i, points, &wanted);
    }
}

/// Turn his banked points into chits while they last.
fn earn(day: &mut Day<'_>, i: usize, points: i32, wanted: &[String]) {
    loop {
        let who = &day.state.characters[i];
        let Some(development) = who.development.clone() else {
            return;
        };
        if development.banked < development.points_per_chit() {
            return;
        }
        if development.level >= TOP_LEVEL {
            if !development.extended {
                return;
            }
            on_record(day, i, points);
            continue;
        }
        let left: Vec<(u8, String)> = next_level_chits(day.data, day.rules, who)
            .into_iter()
            .filter(|(stage, _)| !development.gained.contains(stage))
            .collect();
        let chosen = wanted
            .iter()
            .find_map(|name| {
                left.iter()
                    .find(|(_, chit)| chit.eq_ignore_ascii_case(name))
            })
            .or_else(|| left.first())
            .cloned();
        let Some((stage, chit)) = chosen else {
            return;
        };
        let before: Vec<String> = names_in_force(day, i);
        let next_level = development.level + 1;
        let (data, rules) = (day.data, day.rules);
        crate::abilities::reshape_keeping(data, rules, &mut day.state.characters[i], |who| {
            if let Some(d) = &mut who.development {
                d.banked -= d.points_per_chit();
                d.earned = d.earned.saturating_add(1);
                d.gained.push(stage);
                if d.gained.len() == usize::from(CHITS_PER_LEVEL) {
                    d.level += 1;
                    d.gained.clear();
                }
            }
        });
        let character = day.state.characters[i].name.clone();
        let observers = day.only(i);
        let of_level = u8::try_from(development.gained.len() + 1).unwrap_or(CHITS_PER_LEVEL);
        day.emit(
            observers.clone(),
            Happening::Development(DevelopmentEvent::ChitGained {
                character: character.clone(),
                chit,
                level: next_level,
                of_level,
                points,
            }),
        );
        if of_level == CHITS_PER_LEVEL {
            let advantages = names_in_force(day, i)
                .into_iter()
                .filter(|a| !before.contains(a))
                .collect();
            day.emit(
                observers,
                Happening::Development(DevelopmentEvent::LevelReached {
                    character,
                    level: next_level,
                    advantages,
                }),
            );
        }
    }
}

/// A chit toward his next stage above 4th, on record (3.1 10.E.6.6).
fn on_record(day: &mut Day<'_>, i: usize, points: i32) {
    let who = &mut day.state.characters[i];
    let Some(d) = &mut who.development else {
        return;
    };
    d.banked -= d.points_per_chit();
    d.earned = d.earned.saturating_add(1);
    d.beyond += 1;
    let stage = d.level + 1;
    let of_stage = d.beyond;
    if d.beyond == CHITS_PER_LEVEL {
        d.level += 1;
        d.beyond = 0;
    }
    let character = who.name.clone();
    let observers = day.only(i);
    day.emit(
        observers,
        Happening::Development(DevelopmentEvent::ChitOnRecord {
            character,
            stage,
            of_stage,
            points,
        }),
    );
}

/// At the game's end under Extended Development, tell the GM what each
/// character carries into the next campaign (3.1 10.E.6.3): one chit more
/// for surviving unkilled, for the victor (the highest score, when 0 or
/// more) a whole stage more, or under the option of 10.E.6.3.4 one chit
/// more or nothing, a whole stage less for a character dead at the end,
/// never below 1st stage (10.E.6.5). A character revived (10.E.6.4) lost
/// his three chits then, and earns no survivor's chit; one killed and
/// started over as a new individual left his line as he fell.
pub fn carry_over(day: &mut Day<'_>) {
    if !day.rules.is_on(crate::development::EXTENDED_DEVELOPMENT) {
        return;
    }
    let requirements = &day.state.victory_requirements;
    let by_chits = day.rules.is_on(WITHOUT_REQUIREMENTS);
    // Without requirements the victor earned the most chits (3.1
    // 10.E.6.10); ruling: at least one, and alive at the end, as a victor
    // by score must be.
    let totals: Vec<i32> = day
        .state
        .characters
        .iter()
        .map(|c| {
            if by_chits {
                i32::from(c.development.as_ref().map_or(0, |d| d.earned))
            } else {
                victory::score(
                    day.data,
                    day.rules,
                    &day.state,
                    c,
                    requirements.get(&c.name),
                )
                .total
            }
        })
        .collect();
    let least = i32::from(by_chits);
    let best = totals.iter().copied().max().filter(|b| *b >= least);
    // Who met his requirements won, when the game ends so (3.1 10.E.6.3);
    // ruling: when nobody did by the calendar's end, the best score.
    let met = if day.rules.is_on(ENDS_AT_VICTORY) {
        requirements_met(day)
    } else {
        Vec::new()
    };
    if by_chits {
        let victors: Vec<String> = day
            .state
            .characters
            .iter()
            .zip(&totals)
            .filter(|(who, total)| Some(**total) == best && !who.dead)
            .map(|(who, _)| who.name.clone())
            .collect();
        let earned = day
            .state
            .characters
            .iter()
            .zip(&totals)
            .filter(|(who, _)| who.development.is_some())
            .map(|(who, total)| (who.name.clone(), u8::try_from(*total).unwrap_or(0)))
            .collect();
        day.emit(
            realmgm_core::game::Observers::Everyone,
            Happening::Development(DevelopmentEvent::VictorByChits { earned, victors }),
        );
    }
    let living = day
        .state
        .characters
        .iter()
        .zip(&totals)
        .filter_map(|(who, total)| {
            let d = who.development.as_ref()?;
            let won = if met.is_empty() {
                Some(*total) == best && !who.dead
            } else {
                met.contains(&who.name)
            };
            Some(carried_line(day.data, day.rules, who, d, won))
        });
    let lines = day.state.fallen.iter().cloned().chain(living).collect();
    day.emit(
        realmgm_core::game::Observers::Gm,
        Happening::Development(DevelopmentEvent::CarryOver { lines }),
    );
}

/// The living characters who have met every category of their victory
/// requirements.
fn requirements_met(day: &Day<'_>) -> Vec<String> {
    let requirements = &day.state.victory_requirements;
    day.state
        .characters
        .iter()
        .filter(|c| !c.dead)
        .filter(|c| {
            victory::short_of_requirements(
                day.data,
                day.rules,
                &day.state,
                c,
                requirements.get(&c.name),
            )
            .is_empty()
        })
        .map(|c| c.name.clone())
        .collect()
}

/// Under `extended_development_ends_at_victory` the game ends at the
/// Midnight a living character has met every category of his victory
/// requirements: he wins (3.1 10.E.6.3). Ruling: several meeting theirs
/// the same Midnight all win.
pub fn end_at_victory(day: &mut Day<'_>, day_number: u32) {
    if !day.rules.is_on(ENDS_AT_VICTORY) || day_number >= day.state.last_day {
        return;
    }
    let characters = requirements_met(day);
    if characters.is_empty() {
        return;
    }
    day.state.last_day = day_number;
    day.emit(
        realmgm_core::game::Observers::Everyone,
        Happening::Development(DevelopmentEvent::RequirementsMet { characters }),
    );
}

/// The chits a victor gains for winning, and why (3.1 10.E.6.3.4 and its
/// option).
fn winners_gain(rules: &Rules) -> (i32, &'static str) {
    use crate::development::{WINNER_NO_JUMP, WINNER_ONE_CHIT};
    if rules.is_on(WINNER_NO_JUMP) {
        (0, "nothing for winning (10.E.6.3.4 option)")
    } else if rules.is_on(WINNER_ONE_CHIT) {
        (1, "a chit for winning (10.E.6.3.4 option)")
    } else {
        (i32::from(CHITS_PER_LEVEL), "a stage for winning")
    }
}

/// One character's line of `[carry_over.development]`, with why.
pub(super) fn carried_line(
    data: &GameData,
    rules: &Rules,
    who: &CharacterState,
    d: &Development,
    won: bool,
) -> String {
    let per = i32::from(CHITS_PER_LEVEL);
    let (survived, survived_why) = if d.revived > 0 {
        (0, "revived, a stage down already: no chit for surviving")
    } else {
        (1, "survived: a chit")
    };
    let (change, why) = if who.dead {
        (-per, "killed: a stage less".to_string())
    } else if won {
        let (gain, gain_why) = winners_gain(rules);
        (survived + gain, format!("{survived_why}; won: {gain_why}"))
    } else {
        (survived, survived_why.to_string())
    };
    let after = d.moved_by(change);
    let detail = if after.level >= TOP_LEVEL {
        if after.beyond == 0 {
            String::new()
        } else {
            format!(", extra = {}", after.beyond)
        }
    } else {
        let mut next = who.clone();
        next.development = Some(after.clone());
        let all = next_level_chits(data, rules, &next);
        let names: Vec<String> = after
            .gained
            .iter()
            .filter_map(|s| {
                all.iter()
                    .find(|(t, _)| t == s)
                    .map(|(_, c)| format!("\"{c}\""))
            })
            .collect();
        if names.is_empty() {
            String::new()
        } else {
            format!(", extra_chits = [{}]", names.join(", "))
        }
    };
    let hint = if after.level > crate::development::HIGHEST_STAGE {
        "; an immortal: retired, the player starts over with another character (10.E.6.7.7)"
    } else if after.level == crate::development::SPELL_STAGE {
        "; add extra_spell = \"SPELL\" to record a spell instead of a counter (10.E.6.7.6)"
    } else {
        ""
    };
    format!(
        "\"{}\" = {{ stage = {}{detail} }}   # {why}{hint}",
        who.name, after.level
    )
}

/// The names of his abilities in force.
fn names_in_force(day: &Day<'_>, i: usize) -> Vec<String> {
    crate::abilities::in_force(day.data, day.rules, &day.state.characters[i])
        .into_iter()
        .map(|a| a.name.clone())
        .collect()
}
