//! What a day file expects of its day, what the day came to, and the
//! comparison of the two: one line in words for each field that differs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Played;
use crate::data::GameData;
use crate::data::characters::Relationship;
use crate::day::events::{Happening, PhaseEvent};
use crate::day::meeting::level_of;
use crate::state::{BoonOwed, CharacterChit, CharacterState, ChitCondition, MrState, Whereabouts};

/// The expected result; every field left out is not checked.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// Character or denizen → the clearing he ends the day in.
    pub positions: Option<BTreeMap<String, String>>,
    /// Exactly these characters end the day hidden.
    pub hidden: Option<Vec<String>>,
    /// Character → things he carries at the end (among others).
    pub belongings: Option<BTreeMap<String, Vec<String>>>,
    pub gold: Option<BTreeMap<String, i32>>,
    pub fame: Option<BTreeMap<String, i32>>,
    pub notoriety: Option<BTreeMap<String, i32>>,
    /// Exactly these characters are dead at the end.
    pub dead: Option<Vec<String>>,
    /// Exactly these denizens were killed today.
    pub killed: Option<Vec<String>>,
    /// Character → exactly these are his weapon, armour and belongings.
    pub belongings_exact: Option<BTreeMap<String, Vec<String>>>,
    /// Character → his action chits in each state named (exactly those).
    pub chits: Option<BTreeMap<String, Chits>>,
    /// Character → how each of his phases went, in order, each as the
    /// start of the result the GM's history prints (`moves to CV5`,
    /// `hides`, `lost`).
    pub phases: Option<BTreeMap<String, Vec<String>>>,
    /// Character → exactly these natives are hired by him at the end.
    pub hirelings: Option<BTreeMap<String, Vec<String>>>,
    /// Character → group or visitor → his relationship with it as the
    /// Meeting table reads it and his sheet prints it (`"friendly"`).
    pub relationships: Option<BTreeMap<String, BTreeMap<String, String>>>,
    /// Character → group or visitor → the levels his relationship has
    /// moved for good (a group left out: none).
    pub shifts: Option<BTreeMap<String, BTreeMap<String, i8>>>,
    /// Character → exactly these curses are on him.
    pub curses: Option<BTreeMap<String, Vec<String>>>,
    /// Character → exactly these boons he owes, oldest first.
    pub boons_owed: Option<BTreeMap<String, Vec<BoonOwed>>>,
    /// Character → exactly these mission and campaign chits he holds.
    pub missions: Option<BTreeMap<String, Vec<String>>>,
    /// Character → his development level at the end (3.1 10.E.5; 4
    /// without Development).
    pub levels: Option<BTreeMap<String, u8>>,
    /// Text a report must or must not contain.
    pub report: Option<Vec<ReportExpect>>,
}

/// A character's action chits by state, each as printed (`MOVE M4*`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Chits {
    /// Every chit he has in play that is active (under Development, only
    /// the chits of his level and those he has gained are in play).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fatigued: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wounded: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enchanted: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prepared: Option<Vec<String>>,
}

/// `{ player = "ann", contains = [...], lacks = [...] }`: the report of a
/// player (or `"gm"` for the GM's history), as mailed.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ReportExpect {
    pub player: String,
    #[serde(default)]
    pub contains: Vec<String>,
    #[serde(default)]
    pub lacks: Vec<String>,
}

/// What the day came to.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Outcome {
    /// Characters and denizens on the map → their clearing.
    pub positions: BTreeMap<String, String>,
    pub hidden: Vec<String>,
    /// Character → weapon, armour and belongings.
    pub belongings: BTreeMap<String, Vec<String>>,
    pub gold: BTreeMap<String, i32>,
    pub fame: BTreeMap<String, i32>,
    pub notoriety: BTreeMap<String, i32>,
    pub dead: Vec<String>,
    /// Denizens alive before the day and dead after it.
    pub killed: Vec<String>,
    /// Character → his chits that are not plain active, by state.
    pub chits: BTreeMap<String, Chits>,
    /// Character → how each of his phases went, as printed.
    pub phases: BTreeMap<String, Vec<String>>,
    /// Character → the natives he has hired.
    pub hirelings: BTreeMap<String, Vec<String>>,
    /// Character → group or visitor → his relationship, as the Meeting
    /// table reads it.
    pub relationships: BTreeMap<String, BTreeMap<String, String>>,
    /// Character → group or visitor → levels moved for good.
    pub shifts: BTreeMap<String, BTreeMap<String, i8>>,
    /// Character → the curses on him.
    pub curses: BTreeMap<String, Vec<String>>,
    /// Character → the boons he owes, oldest first.
    pub boons_owed: BTreeMap<String, Vec<BoonOwed>>,
    /// Character → the mission and campaign chits he holds.
    pub missions: BTreeMap<String, Vec<String>>,
    /// Character → his development level.
    pub levels: BTreeMap<String, u8>,
}

/// Sum up a played day.
pub fn outcome(data: &GameData, played: &Played) -> Outcome {
    let state = &played.after;
    let mut out = Outcome::default();
    let groups = super::trading_groups(data);
    for c in &state.characters {
        let levels = groups
            .iter()
            .map(|g| {
                let level = level_of(data, &played.rules, state, c, g);
                (
                    g.to_string(),
                    Relationship::at_level(level).label().to_string(),
                )
            })
            .collect();
        out.relationships.insert(c.name.clone(), levels);
        out.shifts
            .insert(c.name.clone(), c.relationship_shift.clone());
        out.boons_owed.insert(c.name.clone(), c.boons_owed.clone());
        out.levels
            .insert(c.name.clone(), crate::development::level(c));
        out.missions.insert(
            c.name.clone(),
            c.gold_specials.iter().map(|t| t.chit.clone()).collect(),
        );
        out.curses.insert(
            c.name.clone(),
            c.magic
                .curses
                .iter()
                .map(|k| k.name().to_string())
                .collect(),
        );
        out.positions.insert(c.name.clone(), c.position.to_string());
        if c.hidden {
            out.hidden.push(c.name.clone());
        }
        if c.dead {
            out.dead.push(c.name.clone());
        }
        let carried = c
            .weapon
            .iter()
            .chain(&c.armor)
            .cloned()
            .chain(c.belongings.iter().map(|b| b.item.name.clone()))
            .collect();
        out.belongings.insert(c.name.clone(), carried);
        out.chits.insert(c.name.clone(), chit_states(c));
        out.hirelings.insert(
            c.name.clone(),
            c.hirelings.iter().map(|h| h.native.clone()).collect(),
        );
        out.gold.insert(c.name.clone(), i32::from(c.gold));
        out.fame.insert(c.name.clone(), c.fame);
        out.notoriety.insert(c.name.clone(), c.notoriety);
    }
    for (id, d) in &state.denizens {
        if let Whereabouts::Clearing { clearing } = &d.at {
            out.positions.insert(id.clone(), clearing.to_string());
        }
    }
    for (id, record) in &state.leaders {
        if record.hidden {
            out.hidden.push(id.clone());
        }
    }
    out.killed = killed(&played.before, state);
    for e in &played.events {
        if let Happening::Phase(PhaseEvent::PhaseDone {
            character, result, ..
        }) = &e.happening
        {
            out.phases
                .entry(character.clone())
                .or_default()
                .push(result.to_string());
        }
    }
    out
}

fn chit_states(c: &CharacterState) -> Chits {
    let named = |keep: &dyn Fn(&CharacterChit) -> bool| {
        Some(
            c.chits
                .iter()
                .filter(|x| keep(x))
                .map(|x| x.chit.clone())
                .collect(),
        )
    };
    Chits {
        active: named(&|x| x.condition == ChitCondition::Active),
        fatigued: named(&|x| x.condition == ChitCondition::Fatigued),
        wounded: named(&|x| x.condition == ChitCondition::Wounded),
        enchanted: named(&|x| x.enchanted),
        prepared: named(&|x| x.prepared),
    }
}

/// Phases in order, as `1. moves to CV5; 2. hides (1,1)`.
fn listed(phases: &[String]) -> String {
    if phases.is_empty() {
        return "no phase".to_string();
    }
    phases
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{}. {p}", i + 1))
        .collect::<Vec<_>>()
        .join("; ")
}

fn killed(before: &MrState, after: &MrState) -> Vec<String> {
    after
        .denizens
        .iter()
        .filter(|(id, d)| {
            d.at == Whereabouts::Dead
                && before
                    .denizens
                    .get(*id)
                    .is_some_and(|b| b.at != Whereabouts::Dead)
        })
        .map(|(id, _)| id.clone())
        .collect()
}

/// Compare a day's outcome and reports (reader → text, `gm` for the GM's
/// history) with what the file expects; empty when all agree.
pub fn check(expect: &Expect, got: &Outcome, reports: &BTreeMap<String, String>) -> Vec<String> {
    let mut wrong = Vec::new();
    let same = crate::combat::script::note_mismatch;
    let sorted = crate::combat::script::sorted_names;
    for (name, at) in expect.positions.iter().flatten() {
        let have = got
            .positions
            .get(name)
            .map_or("off the map", String::as_str);
        same(
            &mut wrong,
            &format!("position of {name}"),
            at.clone(),
            have.to_string(),
        );
    }
    for (what, want, have) in [
        ("hidden", &expect.hidden, &got.hidden),
        ("dead", &expect.dead, &got.dead),
        ("killed", &expect.killed, &got.killed),
    ] {
        if let Some(want) = want {
            same(&mut wrong, what, sorted(want), sorted(have));
        }
    }
    for (what, want, have) in [
        ("gold", &expect.gold, &got.gold),
        ("fame", &expect.fame, &got.fame),
        ("notoriety", &expect.notoriety, &got.notoriety),
    ] {
        for (name, n) in want.iter().flatten() {
            match have.get(name) {
                Some(h) => same(
                    &mut wrong,
                    &format!("{what} of {name}"),
                    n.to_string(),
                    h.to_string(),
                ),
                None => wrong.push(format!("{what} of {name}: no character {name} in the day")),
            }
        }
    }
    for (name, items) in expect.belongings.iter().flatten() {
        let Some(have) = got.belongings.get(name) else {
            wrong.push(format!(
                "belongings of {name}: no character {name} in the day"
            ));
            continue;
        };
        for item in items {
            if !have.contains(item) {
                wrong.push(format!(
                    "belongings of {name}: expected {item} among them, got {}",
                    sorted(have)
                ));
            }
        }
    }
    for (name, items) in expect.belongings_exact.iter().flatten() {
        let have = got.belongings.get(name).cloned().unwrap_or_default();
        same(
            &mut wrong,
            &format!("belongings of {name}"),
            sorted(items),
            sorted(&have),
        );
    }
    for (name, want) in expect.hirelings.iter().flatten() {
        let have = got.hirelings.get(name).cloned().unwrap_or_default();
        same(
            &mut wrong,
            &format!("hirelings of {name}"),
            sorted(want),
            sorted(&have),
        );
    }
    for (name, want) in expect.relationships.iter().flatten() {
        for (group, level) in want {
            let have = got
                .relationships
                .get(name)
                .and_then(|r| r.get(group))
                .map_or("no such group or character", String::as_str);
            same(
                &mut wrong,
                &format!("relationship of {name} with {group}"),
                level.clone(),
                have.to_string(),
            );
        }
    }
    for (name, want) in expect.shifts.iter().flatten() {
        let have = got.shifts.get(name);
        for (group, levels) in want {
            let have = have.and_then(|s| s.get(group)).copied().unwrap_or(0);
            same(
                &mut wrong,
                &format!("levels {name}'s relationship with {group} moved"),
                levels.to_string(),
                have.to_string(),
            );
        }
    }
    for (name, want) in expect.curses.iter().flatten() {
        let have = got.curses.get(name).cloned().unwrap_or_default();
        same(
            &mut wrong,
            &format!("curses on {name}"),
            sorted(want),
            sorted(&have),
        );
    }
    let boons = |owed: &[BoonOwed]| {
        let listed: Vec<String> = owed
            .iter()
            .map(|b| format!("{} ({} gold)", b.group, b.price))
            .collect();
        if listed.is_empty() {
            "none".to_string()
        } else {
            listed.join(", ")
        }
    };
    for (name, want) in expect.boons_owed.iter().flatten() {
        let have = got.boons_owed.get(name).cloned().unwrap_or_default();
        same(
            &mut wrong,
            &format!("boons {name} owes"),
            boons(want),
            boons(&have),
        );
    }
    for (name, want) in expect.levels.iter().flatten() {
        let have = got.levels.get(name).copied().unwrap_or(0);
        same(
            &mut wrong,
            &format!("development level of {name}"),
            want.to_string(),
            have.to_string(),
        );
    }
    for (name, want) in expect.missions.iter().flatten() {
        let have = got.missions.get(name).cloned().unwrap_or_default();
        same(
            &mut wrong,
            &format!("mission and campaign chits of {name}"),
            sorted(want),
            sorted(&have),
        );
    }
    for (name, want) in expect.chits.iter().flatten() {
        let have = got.chits.get(name).cloned().unwrap_or_default();
        for (state, want, have) in [
            ("active", &want.active, &have.active),
            ("fatigued", &want.fatigued, &have.fatigued),
            ("wounded", &want.wounded, &have.wounded),
            ("enchanted", &want.enchanted, &have.enchanted),
            ("prepared", &want.prepared, &have.prepared),
        ] {
            if let Some(want) = want {
                same(
                    &mut wrong,
                    &format!("{state} chits of {name}"),
                    sorted(want),
                    sorted(have.as_deref().unwrap_or_default()),
                );
            }
        }
    }
    for (name, want) in expect.phases.iter().flatten() {
        let have = got.phases.get(name).cloned().unwrap_or_default();
        let agrees = want.len() == have.len()
            && want
                .iter()
                .zip(&have)
                .all(|(w, h)| h.starts_with(w.as_str()));
        if !agrees {
            wrong.push(format!(
                "phases of {name}: expected {}, got {}",
                listed(want),
                listed(&have)
            ));
        }
    }
    for r in expect.report.iter().flatten() {
        let Some(text) = reports.get(&r.player) else {
            wrong.push(format!(
                "report of {}: no such reader; name a player of the file or \"gm\"",
                r.player
            ));
            continue;
        };
        for line in &r.contains {
            if !text.contains(line.as_str()) {
                wrong.push(format!("report of {}: no text \"{line}\"", r.player));
            }
        }
        for line in &r.lacks {
            if let Some(found) = text.lines().find(|l| l.contains(line.as_str())) {
                wrong.push(format!(
                    "report of {}: has \"{line}\" in: {}",
                    r.player,
                    found.trim()
                ));
            }
        }
    }
    wrong
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mismatch_names_the_field_and_both_values() {
        let expect = Expect {
            positions: Some([("Amazon".to_string(), "CV5".to_string())].into()),
            hidden: Some(vec!["Amazon".into()]),
            report: Some(vec![ReportExpect {
                player: "gm".into(),
                contains: vec!["moves".into()],
                lacks: vec!["Giant".into()],
            }]),
            ..Expect::default()
        };
        let got = Outcome {
            positions: [("Amazon".to_string(), "CV4".to_string())].into(),
            ..Outcome::default()
        };
        let reports = [("gm".to_string(), "a line\nGiant 1 moves".to_string())].into();
        assert_eq!(
            check(&expect, &got, &reports),
            [
                "position of Amazon: expected CV5, got CV4",
                "hidden: expected Amazon, got none",
                "report of gm: has \"Giant\" in: Giant 1 moves",
            ]
        );
    }
}
