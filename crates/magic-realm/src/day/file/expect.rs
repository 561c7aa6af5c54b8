//! What a day file expects of its day, what the day came to, and the
//! comparison of the two: one line in words for each field that differs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Played;
use crate::state::{MrState, Whereabouts};

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
    /// Text a report must or must not contain.
    pub report: Option<Vec<ReportExpect>>,
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
}

/// Sum up a played day.
pub fn outcome(played: &Played) -> Outcome {
    let state = &played.after;
    let mut out = Outcome::default();
    for c in &state.characters {
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
        out.gold.insert(c.name.clone(), i32::from(c.gold));
        out.fame.insert(c.name.clone(), c.fame);
        out.notoriety.insert(c.name.clone(), c.notoriety);
    }
    for (id, d) in &state.denizens {
        if let Whereabouts::Clearing { clearing } = &d.at {
            out.positions.insert(id.clone(), clearing.to_string());
        }
    }
    out.killed = killed(&played.before, state);
    out
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
    let same = |wrong: &mut Vec<String>, what: &str, want: String, have: String| {
        if want != have {
            wrong.push(format!("{what}: expected {want}, got {have}"));
        }
    };
    let sorted = |v: &[String]| {
        let mut v = v.to_vec();
        v.sort();
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
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
