//! The texts of the daemon's replies to orders: the orders echoed in their
//! canonical form, each problem with its line in the mail and its reason,
//! the warnings, and what changed since the previous version (a small line
//! diff). Pure functions: the caller supplies everything, including times
//! and the templates; the wording is `templates/confirmation.txt`, which a
//! campaign's `template_folder` may override.

use crate::campaign::{CONFIRMATION_PROBLEMS_SHOWN, format_utc};
use serde::Serialize;

use crate::game::{AcceptedOrders, OrdersProblem};
use crate::report::{TemplateError, Templates};

/// The opening of every mail the daemon writes; a player's reply that
/// quotes without `>` is cut here.
pub fn marker(tag: &str) -> String {
    format!("=== [{tag}]")
}

/// What the confirmation needs to know.
pub struct Confirmation<'a> {
    pub tag: &'a str,
    pub player: &'a str,
    pub day: u32,
    pub deadline: i64,
    pub version: u32,
    /// The orders as read, or every problem found, its line counted in the
    /// mail body.
    pub outcome: Result<&'a AcceptedOrders, &'a [OrdersProblem]>,
    /// The canonical text of the version in force before this one.
    pub previous: Option<&'a str>,
    /// Notes about the mail itself (ignored attachments, HTML-only, ...).
    pub notes: &'a [String],
}

/// What the confirmation template (`templates/confirmation.txt`) is given.
#[derive(Serialize)]
struct ConfirmationView<'a> {
    marker: String,
    player: &'a str,
    day: u32,
    version: u32,
    accepted: bool,
    /// The orders as read, when accepted.
    canonical: &'a str,
    warnings: &'a [String],
    /// The previous version in force, if any.
    previous: Option<&'a str>,
    /// Lines removed (`- `) and added (`+ `) since `previous`.
    changes: Vec<String>,
    problems: Vec<ProblemView<'a>>,
    /// Problems found beyond those listed.
    more_problems: usize,
    notes: &'a [String],
    deadline: String,
}

/// One problem, its line counted in the mail body.
#[derive(Serialize)]
struct ProblemView<'a> {
    line: usize,
    column: usize,
    message: &'a str,
}

/// The confirmation text, filled into the campaign's `confirmation.txt`.
///
/// # Errors
/// The template fails (an override naming an unknown field), named with
/// its file and line.
pub fn confirmation(c: &Confirmation<'_>, templates: &Templates) -> Result<String, TemplateError> {
    let previous = c.previous.map(str::trim_end);
    let (canonical, warnings, changes, problems): (&str, &[String], _, _) = match c.outcome {
        Ok(accepted) => (
            accepted.canonical.trim_end(),
            &accepted.warnings,
            c.previous
                .map(|p| line_diff(p, &accepted.canonical))
                .unwrap_or_default(),
            Vec::new(),
        ),
        Err(problems) => (
            "",
            &[],
            Vec::new(),
            problems
                .iter()
                .take(CONFIRMATION_PROBLEMS_SHOWN)
                .map(|p| ProblemView {
                    line: p.line,
                    column: p.column,
                    message: &p.message,
                })
                .collect(),
        ),
    };
    templates.render(
        "confirmation.txt",
        ConfirmationView {
            marker: marker(c.tag),
            player: c.player,
            day: c.day,
            version: c.version,
            accepted: c.outcome.is_ok(),
            canonical,
            warnings,
            previous,
            changes,
            problems,
            more_problems: c.outcome.err().map_or(0, |all| {
                all.len().saturating_sub(CONFIRMATION_PROBLEMS_SHOWN)
            }),
            notes: c.notes,
            deadline: format_utc(c.deadline),
        },
    )
}

/// The lines removed (`- `) and added (`+ `) going from `old` to `new`, by
/// a longest-common-subsequence diff; empty when they are equal.
pub fn line_diff(old: &str, new: &str) -> Vec<String> {
    let old: Vec<&str> = old.lines().collect();
    let new: Vec<&str> = new.lines().collect();
    // lcs[i][j]: the longest common subsequence of old[i..] and new[j..].
    let mut lcs = vec![vec![0usize; new.len() + 1]; old.len() + 1];
    for i in (0..old.len()).rev() {
        for j in (0..new.len()).rev() {
            lcs[i][j] = if old[i] == new[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < old.len() || j < new.len() {
        if i < old.len() && j < new.len() && old[i] == new[j] {
            i += 1;
            j += 1;
        } else if i < old.len() && (j == new.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push(format!("- {}", old[i]));
            i += 1;
        } else {
            out.push(format!("+ {}", new[j]));
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_shows_removed_and_added_lines_only() {
        assert!(line_diff("a\nb", "a\nb").is_empty());
        assert_eq!(line_diff("a\nb\nc", "a\nx\nc"), vec!["- b", "+ x"]);
        assert_eq!(line_diff("", "a"), vec!["+ a"]);
        assert_eq!(line_diff("a\nb", "b"), vec!["- a"]);
    }

    #[test]
    fn problems_name_the_line_of_the_mail() {
        let problems = [OrdersProblem {
            line: 5,
            column: 1,
            message: "not a number".into(),
        }];
        let c = Confirmation {
            tag: "T",
            player: "Ann",
            day: 3,
            deadline: 0,
            version: 2,
            outcome: Err(&problems),
            previous: Some("guess 5"),
            notes: &["the attachment big.bin (2000000 bytes) was ignored".into()],
        };
        let text = confirmation(&c, &Templates::built_in()).unwrap();
        assert!(text.contains("line 5, column 1: not a number"), "{text}");
        assert!(text.contains("stay in force:\n\nguess 5"), "{text}");
        assert!(
            text.contains("\n\nNotes:\n  - the attachment big.bin"),
            "{text}"
        );
        assert!(text.starts_with("=== [T] day 3"), "{text}");
    }

    #[test]
    fn orders_accepted_after_an_unread_version_are_the_first_accepted_and_notes_are_a_list() {
        let accepted = AcceptedOrders {
            canonical: "Activities: H / H".into(),
            parsed: crate::game::GameValue::default(),
            warnings: Vec::new(),
        };
        let notes = [
            "line 1 (\"Hi Gerald,\") was read as a greeting and left out".to_string(),
            "line 5 (\"Dave\") is not orders and was left out".to_string(),
        ];
        let c = Confirmation {
            tag: "T",
            player: "Dave",
            day: 1,
            deadline: 0,
            version: 2,
            outcome: Ok(&accepted),
            previous: None,
            notes: &notes,
        };
        let text = confirmation(&c, &Templates::built_in()).unwrap();
        assert!(
            text.contains("These are your first accepted orders for this day."),
            "{text}"
        );
        assert!(
            text.contains(
                "\n\nNotes:\n  - line 1 (\"Hi Gerald,\") was read as a greeting and left out\n  \
                 - line 5 (\"Dave\") is not orders and was left out\n\nDeadline"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_mail_of_many_problems_gets_the_first_ones_and_a_count() {
        let problems: Vec<OrdersProblem> = (1..=5000)
            .map(|line| OrdersProblem {
                line,
                column: 1,
                message: "not an order".into(),
            })
            .collect();
        let c = Confirmation {
            tag: "T",
            player: "Ann",
            day: 1,
            deadline: 0,
            version: 1,
            outcome: Err(&problems),
            previous: None,
            notes: &[],
        };
        let text = confirmation(&c, &Templates::built_in()).unwrap();
        assert!(text.contains("line 20, column 1"), "{text}");
        assert!(!text.contains("line 21, column 1"), "{text}");
        assert!(text.contains("and 4980 more problems"), "{text}");
        assert!(text.len() < 3000, "{} bytes", text.len());
    }
}
