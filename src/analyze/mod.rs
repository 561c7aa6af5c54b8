//! `realmgm analyze`: what a house rule does, in numbers. N
//! seeded months are played by the planning bot under campaign file A, and
//! the same N seeds under B; each measure is reported per character and
//! overall with its 95% confidence interval, and every difference B − A
//! with its own, paired by seed ([`stats`]): bootstrap intervals that stay
//! in the range of their measure, and a measure some months lack (the first
//! death day) averaged over the months that have it, saying how many. Months run in parallel, each
//! on its own seed, so the numbers are the same on any machine and any
//! number of cores; every simulated day is checked against the game's
//! invariants ([`invariants`]).

pub mod invariants;
pub mod month;
pub mod page;
mod purse;
mod secrets;
pub mod stats;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use serde::Serialize;

use crate::game::Rules;
use crate::magic_realm::data::GameData;
use month::{MEASURES, MonthError, MonthRecord, Policy};
use stats::{Estimate, Resamples, three};

/// One side of a comparison: a campaign file's rules and calendar.
#[derive(Clone, Debug)]
pub struct Side {
    /// The file, as the reader named it.
    pub file: String,
    pub rules: Rules,
    /// The victory points each character shares for the whole game.
    pub victory_points: u32,
    /// The months the game lasts.
    pub months: u32,
    /// The season it starts in, with the seasons rule.
    pub season: Option<String>,
}

impl Side {
    /// One month of `rules` with the standard victory points and no season.
    pub fn standard(file: &str, rules: Rules) -> Side {
        Side {
            file: file.to_string(),
            rules,
            victory_points: crate::magic_realm::state::VICTORY_POINTS_PER_MONTH,
            months: 1,
            season: None,
        }
    }
}

/// What to play.
#[derive(Clone, Debug)]
pub struct Plan {
    pub a: Side,
    pub b: Option<Side>,
    pub months: usize,
    pub characters: Vec<String>,
    /// Month `k` plays on seed `seed + k`.
    pub seed: u64,
}

/// The months played, paired by seed.
#[derive(Clone, Debug, Default)]
pub struct Played {
    pub a: Vec<MonthRecord>,
    pub b: Vec<MonthRecord>,
    /// The first month that failed, when one did.
    pub failure: Option<MonthError>,
}

/// A month under A, and under B when there is one.
type MonthPair = Result<(MonthRecord, Option<MonthRecord>), MonthError>;

/// Play the months of `plan` on `threads` threads; `stop` ends the run
/// early (Ctrl-C), keeping the months done, and `progress` is told after
/// each month how many are done.
pub fn play(
    data: &GameData,
    plan: &Plan,
    threads: usize,
    stop: &AtomicBool,
    progress: &(dyn Fn(usize) + Sync),
) -> Played {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<BTreeMap<usize, MonthPair>> = Mutex::new(BTreeMap::new());
    let failed = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    if stop.load(Ordering::Relaxed) || failed.load(Ordering::Relaxed) {
                        return;
                    }
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= plan.months {
                        return;
                    }
                    let seed = plan.seed.wrapping_add(k as u64);
                    let one = |side: &Side| play_guarded(data, side, &plan.characters, seed);
                    let result = one(&plan.a)
                        .and_then(|a| plan.b.as_ref().map(one).transpose().map(|b| (a, b)));
                    if result.is_err() {
                        failed.store(true, Ordering::Relaxed);
                    }
                    results
                        .lock()
                        .expect("no thread panics holding it")
                        .insert(k, result);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                }
            });
        }
    });
    let mut played = Played::default();
    // Only the unbroken run of months from the first counts, so an early
    // stop reports the same months on any machine.
    for (k, result) in results.into_inner().expect("no thread panicked") {
        if k != played.a.len() {
            break;
        }
        match result {
            Ok((a, b)) => {
                played.a.push(a);
                played.b.extend(b);
            }
            Err(error) => {
                played.failure = Some(error);
                break;
            }
        }
    }
    played
}

/// One month, a panic in the engine turned into the month's error.
fn play_guarded(
    data: &GameData,
    side: &Side,
    characters: &[String],
    seed: u64,
) -> Result<MonthRecord, MonthError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        month::play(data, side, characters, seed, Policy::Planned)
    }))
    .unwrap_or_else(|panic| {
        Err(MonthError {
            seed,
            day: 0,
            message: format!(
                "panic: {}",
                crate::daemon::guard::panic_message(panic.as_ref())
            ),
        })
    })
}

/// An analysis as it is reported: text, JSON and HTML are made from it.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    pub a: String,
    pub b: Option<String>,
    pub seed: u64,
    pub months_asked: usize,
    pub months: usize,
    pub characters: Vec<String>,
    /// Per scope (each character, then "all"), per measure.
    pub measures: Vec<Row>,
    /// How often each rule-driven event happened, per month.
    pub events: Vec<Row>,
    /// The month that broke an invariant or failed, if any.
    pub failure: Option<String>,
}

/// One measure in one scope, under A and B.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub scope: String,
    pub measure: String,
    pub a: Estimate,
    pub b: Option<Estimate>,
    /// B − A, paired by seed.
    pub difference: Option<Estimate>,
    pub significant: bool,
}

/// The scope of the whole table: every character together.
pub const ALL: &str = "all characters";

impl Analysis {
    /// Summarise `played` for `plan`.
    pub fn of(plan: &Plan, played: &Played) -> Analysis {
        let mut measures = Vec::new();
        let scopes: Vec<&str> = plan
            .characters
            .iter()
            .map(String::as_str)
            .chain([ALL])
            .collect();
        let mut names: Vec<String> = MEASURES.iter().map(|m| (*m).to_string()).collect();
        let extra: BTreeSet<String> = played
            .a
            .iter()
            .chain(&played.b)
            .flat_map(|m| m.characters.values().flat_map(|c| c.keys().cloned()))
            .filter(|m| !MEASURES.contains(&m.as_str()))
            .collect();
        names.extend(extra);
        let resamples = Resamples::new(played.a.len(), plan.seed);
        for scope in &scopes {
            for name in &names {
                let values = |month: &MonthRecord| value_in(month, scope, name);
                measures.push(row(&resamples, scope, name, played, values));
            }
        }
        let event_names: BTreeSet<&String> = played
            .a
            .iter()
            .chain(&played.b)
            .flat_map(|m| m.events.keys())
            .collect();
        let events = event_names
            .into_iter()
            .map(|name| {
                row(&resamples, ALL, name, played, |m: &MonthRecord| {
                    Some(m.events.get(name).copied().unwrap_or(0.0))
                })
            })
            .collect();
        Analysis {
            a: plan.a.file.clone(),
            b: plan.b.as_ref().map(|b| b.file.clone()),
            seed: plan.seed,
            months_asked: plan.months,
            months: played.a.len(),
            characters: plan.characters.clone(),
            measures,
            events,
            failure: played.failure.as_ref().map(ToString::to_string),
        }
    }

    /// The analysis as the terminal shows it.
    pub fn text(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} month{} played by the planning bot (seeds {}..{}), characters: {}",
            self.months,
            if self.months == 1 { "" } else { "s" },
            self.seed,
            self.seed + self.months as u64,
            self.characters.join(", ")
        );
        if self.months < self.months_asked {
            let _ = writeln!(
                out,
                "stopped after {} of {} months",
                self.months, self.months_asked
            );
        }
        let _ = writeln!(out, "A: {}", self.a);
        if let Some(b) = &self.b {
            let _ = writeln!(out, "B: {b}");
        }
        let _ = writeln!(
            out,
            "Per month; [95% confidence interval, bootstrap over the months]; * marks a difference B − A whose interval leaves out 0."
        );
        let _ = writeln!(
            out,
            "A measure some months lack (the first death day: no death) is averaged over the months that have it, and B − A over the months both have it."
        );
        let mut scope = "";
        for row in &self.measures {
            if row.scope != scope {
                scope = &row.scope;
                let _ = writeln!(out, "\n{scope}");
            }
            out.push_str(&row.line(self.months));
        }
        if !self.events.is_empty() {
            let _ = writeln!(out, "\nRule events, whole game");
            for row in &self.events {
                out.push_str(&row.line(self.months));
            }
        }
        if let Some(failure) = &self.failure {
            let _ = writeln!(out, "\nA month failed and stopped the run: {failure}");
        }
        out
    }
}

impl Row {
    /// The row as a line of the text report, of `months` months.
    fn line(&self, months: usize) -> String {
        let mut line = format!("  {:<28} A {}", self.measure, shown(&self.a, months));
        if let (Some(b), Some(d)) = (&self.b, &self.difference) {
            line.push_str(&format!(
                "   B {}   B-A {}{}",
                shown(b, months),
                shown(d, months),
                if self.significant { " *" } else { "" }
            ));
        }
        line.push('\n');
        line
    }
}

/// What `month` says of the measure `name` in `scope`: a character's own
/// value (0 for a native group he killed none of), or for [`ALL`] the sum
/// over the characters, except the first death day, which is the earliest
/// (none when nobody died).
fn value_in(month: &MonthRecord, scope: &str, name: &str) -> Option<f64> {
    const FIRST_DEATH: &str = "first death day";
    if scope != ALL {
        let own = month
            .characters
            .get(scope)
            .and_then(|c| c.get(name).copied());
        return own.or((name != FIRST_DEATH).then_some(0.0));
    }
    let per = month
        .characters
        .values()
        .filter_map(|c| c.get(name).copied());
    if name == FIRST_DEATH {
        per.reduce(f64::min)
    } else {
        Some(per.sum())
    }
}

/// An estimate as the text report shows it: the mean, its interval, and
/// how many of the `months` it is made of when some lack the measure.
fn shown(e: &Estimate, months: usize) -> String {
    let mut text = format!("{:>8}", three(e.mean));
    if let (Some(low), Some(high)) = (e.low, e.high) {
        text.push_str(&format!(" [{}, {}]", three(low), three(high)));
    }
    if e.n < months {
        text.push_str(&format!(" ({} of {months} months)", e.n));
    }
    text
}

fn row(
    resamples: &Resamples,
    scope: &str,
    name: &str,
    played: &Played,
    values: impl Fn(&MonthRecord) -> Option<f64>,
) -> Row {
    let of = |months: &[MonthRecord]| -> Vec<Option<f64>> { months.iter().map(&values).collect() };
    let a_values = of(&played.a);
    let (b_estimate, difference) = if played.b.is_empty() {
        (None, None)
    } else {
        let b_values = of(&played.b);
        (
            Some(resamples.estimate(&b_values)),
            Some(resamples.paired_difference(&a_values, &b_values)),
        )
    };
    Row {
        scope: scope.to_string(),
        measure: name.to_string(),
        a: resamples.estimate(&a_values),
        significant: difference.as_ref().is_some_and(Estimate::excludes_zero),
        b: b_estimate,
        difference,
    }
}

#[cfg(test)]
mod tests;
